/** The registration form's values, its inline rules and where a server refusal belongs on the form. */
import type { Failure } from '../../machines/failure';
import {
  compact,
  contactRule,
  emailRule,
  keyRule,
  passwordRule,
  phoneRule,
  repeatRule,
  requiredRule,
  usernameRule,
} from '../../lib/account-rules';

export const QUESTION_CHOICES = ['q1', 'q2', 'q3', 'q4', 'custom'] as const;

export const REGISTER_INITIAL = {
  username: '',
  email: '',
  phone: '',
  password: '',
  repassword: '',
  key: '',
  rekey: '',
  questionChoice: 'q1',
  customQuestion: '',
  answer: '',
  invite: '',
  verify: '',
};

export type RegisterValues = typeof REGISTER_INITIAL;

export function validateRegister(v: RegisterValues) {
  const contact = contactRule(v.email, v.phone);
  return compact({
    username: usernameRule(v.username),
    email: emailRule(v.email) ?? contact,
    phone: phoneRule(v.phone) ?? contact,
    password: passwordRule(v.password),
    repassword: repeatRule(v.repassword, v.password, 'errors.passwordsDiffer'),
    key: keyRule(v.key),
    rekey: repeatRule(v.rekey, v.key, 'errors.keysDiffer'),
    customQuestion:
      v.questionChoice === 'custom' ? requiredRule(v.customQuestion, 'auth.questionRequired') : undefined,
    answer: requiredRule(v.answer, 'auth.answerRequired'),
    verify: requiredRule(v.verify, 'errors.e2010'),
  });
}

/** Catalogue codes that name one field: the refusal is shown on it (and it gets focus). */
const FIELD_OF_CODE: Record<number, keyof RegisterValues> = {
  214: 'username',
  2001: 'username',
  2002: 'username',
  2003: 'username',
  215: 'email',
  2006: 'email',
  2007: 'email',
  216: 'phone',
  2008: 'phone',
  2009: 'phone',
  2004: 'password',
  2005: 'password',
  20041: 'key',
  20051: 'key',
  1998: 'answer',
  1999: 'invite',
  2010: 'verify',
  2013: 'verify',
};

export function fieldOfFailure(failure: Failure): keyof RegisterValues | undefined {
  return typeof failure.code === 'number' ? FIELD_OF_CODE[failure.code] : undefined;
}
