/**
 * One "change a secret" form: the old value, the new one twice, checked inline before sending. Used for
 * the login password (editPsw) and the security key (edituserPsw) on /user/changePsw. A member with
 * two-factor authentication also gives the authenticator or a recovery code, or uses a passkey (docs/SPEC.md
 * §10); a member without it sees the form as it always was.
 */
import { useCallback, useRef, useState } from 'react';
import type { PasskeyAnswer } from '../../../engine/index';
import { useTranslation } from 'react-i18next';
import { toastStore } from '../../state/toast-store';
import { toFailure, type Failure } from '../../machines/failure';
import { PasswordField } from '../../ui/PasswordField';
import { FailureAlert } from '../../ui/FailureAlert';
import { compact, repeatRule } from '../../lib/account-rules';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';
import { SecondFactorField } from '../../ui/SecondFactorField';
import { useSecondFactorInput } from '../../ui/use-second-factor';
import type { SecondFactor } from '../../lib/security';

const INITIAL = { old: '', next: '', repeat: '' };

export interface SecretFormProps {
  id: string;
  labels: { old: string; next: string; repeat: string; submit: string; done: string };
  /** Rule for the new value (password >= 6, key >= 4); a translation key or undefined. */
  rule: (value: string) => string | undefined;
  oldEmptyKey: string;
  differKey: string;
  hint: string;
  /** Sends the change with the second factor's fields (`{}` without two-factor); rejects with the API error. */
  send: (values: { old: string; next: string; repeat: string }, factor: SecondFactor) => Promise<unknown>;
  /** Catalogue codes that mean "the old value is wrong", shown on the old field. */
  oldWrong: Record<number, string>;
  /** The member's two-factor authentication, as the device knows it (the server's 6101 shows the field too). */
  twoFactor?: { on: boolean; passkeys: boolean };
}

export function SecretForm({
  id,
  labels,
  rule,
  oldEmptyKey,
  differKey,
  hint,
  send,
  oldWrong,
  twoFactor = { on: false, passkeys: false },
}: SecretFormProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const second = useSecondFactorInput(twoFactor.on);
  /** "Use a passkey" answered: the next submit sends the form with it instead of the code. */
  const passkey = useRef<PasskeyAnswer | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const validate = useCallback(
    (v: typeof INITIAL) =>
      compact({
        old: v.old ? undefined : oldEmptyKey,
        next: rule(v.next),
        repeat: repeatRule(v.repeat, v.next, differKey),
      }),
    [rule, oldEmptyKey, differKey],
  );
  const form = useForm(INITIAL, validate);
  const field = translatedFields(form.bind, t);

  const submit = form.handleSubmit(async (v) => {
    const answer = passkey.current;
    passkey.current = null;
    const factor = answer ? { passkey: answer } : second.factor();
    if (!factor) return;
    setBusy(true);
    setFailure(null);
    try {
      await send(v, factor);
      toastStore.show(labels.done, 'success');
      form.reset();
      second.clear();
    } catch (error) {
      const f = toFailure(error);
      const oldKey = typeof f.code === 'number' ? oldWrong[f.code] : undefined;
      if (oldKey) form.setServerError('old', oldKey);
      else if (!second.refused(f)) setFailure(f);
    } finally {
      setBusy(false);
    }
  });

  return (
    <form ref={form.formRef} id={id} className="form" noValidate onSubmit={submit} aria-busy={busy}>
      <PasswordField label={labels.old} autoComplete="current-password" {...field('old')} />
      <PasswordField label={labels.next} autoComplete="new-password" hint={hint} {...field('next')} />
      <PasswordField label={labels.repeat} autoComplete="new-password" {...field('repeat')} />
      {second.shown && (
        <SecondFactorField
          action="security"
          code={second.code}
          onCode={second.onCode}
          passkeys={twoFactor.passkeys}
          onPasskey={(answer) => {
            passkey.current = answer;
            // The submit runs at once: checked like a typed one, sent with the passkey's answer.
            form.formRef.current?.requestSubmit();
            passkey.current = null;
          }}
          error={second.error}
          disabled={busy}
          autoFocus={!twoFactor.on}
        />
      )}
      <FailureAlert failure={failure} />
      <button type="submit" className="button primary block" disabled={busy}>
        {labels.submit}
      </button>
    </form>
  );
}
