/**
 * Registration and credential rules of SPEC.md §5 as pure functions returning the catalogue error (or
 * nothing). Decisions: 2004 login password empty, 20041 security key empty (the catalogue gives both codes
 * for "password empty"); two entries that differ, a wrong old password or secret answer answer 402 with a
 * clear message (the catalogue has no code of their own); 1998 question or answer empty.
 */
import { Codes, fail, type EngineError } from '../errors';

export const USERNAME_MAX = 25;
export const PASSWORD_MIN = 6;
export const KEY_MIN = 4;
/** Upper bounds keep PBKDF2 input and records small; far above what a member types. */
export const SECRET_MAX = 128;

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE_RE = /^\+?\d{6,15}$/;

export function checkUsername(username: string): EngineError | undefined {
  if (username.length === 0) return fail(Codes.usernameEmpty, 'Username is required');
  if (username.length > USERNAME_MAX)
    return fail(Codes.usernameTooLong, `Username is at most ${USERNAME_MAX} characters`);
  if (!/^[A-Za-z0-9]+$/.test(username))
    return fail(Codes.usernameCharset, 'Username may contain only letters and digits');
  return undefined;
}

export function checkPassword(password: string, repeat: string): EngineError | undefined {
  if (password.length === 0) return fail(Codes.passwordEmpty, 'Login password is required');
  if (password.length < PASSWORD_MIN)
    return fail(Codes.passwordTooShort, `Login password is at least ${PASSWORD_MIN} characters`);
  if (password.length > SECRET_MAX)
    return fail(Codes.message, `Login password is at most ${SECRET_MAX} characters`);
  if (password !== repeat) return fail(Codes.message, 'The two passwords differ');
  return undefined;
}

export function checkKey(key: string, repeat: string): EngineError | undefined {
  if (key.length === 0) return fail(Codes.keyEmpty, 'Security key is required');
  if (key.length < KEY_MIN) return fail(Codes.keyTooShort, `Security key is at least ${KEY_MIN} characters`);
  if (key.length > SECRET_MAX) return fail(Codes.message, `Security key is at most ${SECRET_MAX} characters`);
  if (key !== repeat) return fail(Codes.message, 'The two security keys differ');
  return undefined;
}

/**
 * At least one of e-mail and phone. A field that is sent empty answers its own "empty" code (2006 / 2008)
 * when the other is absent too; neither field sent at all answers 2006.
 */
export function checkContact(email: string | undefined, phone: string | undefined): EngineError | undefined {
  const e = email?.trim() ?? '';
  const p = phone?.trim() ?? '';
  if (!e && !p) {
    if (phone !== undefined && email === undefined) return fail(Codes.phoneEmpty, 'Phone number is required');
    return fail(Codes.emailEmpty, 'E-mail address (or a phone number) is required');
  }
  if (e && (e.length > 254 || !EMAIL_RE.test(e)))
    return fail(Codes.emailFormat, 'E-mail address is not valid');
  if (p && !PHONE_RE.test(p.replace(/[\s-]/g, '')))
    return fail(Codes.phoneFormat, 'Phone number is not valid');
  return undefined;
}

export function checkQuestion(question: string, answer: string): EngineError | undefined {
  if (question.trim().length === 0 || answer.trim().length === 0) {
    return fail(Codes.questionOrAnswerEmpty, 'Secret question and answer are required');
  }
  return undefined;
}

export function emailKey(email: string | undefined): string | null {
  const e = email?.trim().toLowerCase() ?? '';
  return e || null;
}

/** Phones compare by digits (and a leading +), so "+1 555-0100" and "+15550100" are one number. */
export function phoneKey(phone: string | undefined): string | null {
  const p = phone?.trim().replace(/[\s-]/g, '') ?? '';
  return p || null;
}
