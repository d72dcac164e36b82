/**
 * One "change a secret" form: the old value, the new one twice, checked inline before sending. Used for
 * the login password (editPsw) and the security key (edituserPsw) on /user/changePsw.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastStore } from '../../state/toast-store';
import { toFailure, type Failure } from '../../machines/failure';
import { PasswordField } from '../../ui/PasswordField';
import { FailureAlert } from '../../ui/FailureAlert';
import { compact, repeatRule } from '../../lib/account-rules';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';

const INITIAL = { old: '', next: '', repeat: '' };

export interface SecretFormProps {
  id: string;
  labels: { old: string; next: string; repeat: string; submit: string; done: string };
  /** Rule for the new value (password >= 6, key >= 4); a translation key or undefined. */
  rule: (value: string) => string | undefined;
  oldEmptyKey: string;
  differKey: string;
  hint: string;
  /** Sends the change; rejects with the API error. */
  send: (values: { old: string; next: string; repeat: string }) => Promise<unknown>;
  /** Catalogue codes that mean "the old value is wrong", shown on the old field. */
  oldWrong: Record<number, string>;
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
}: SecretFormProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
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
    setBusy(true);
    setFailure(null);
    try {
      await send(v);
      toastStore.show(labels.done, 'success');
      form.reset();
    } catch (error) {
      const f = toFailure(error);
      const oldKey = typeof f.code === 'number' ? oldWrong[f.code] : undefined;
      if (oldKey) form.setServerError('old', oldKey);
      else setFailure(f);
    } finally {
      setBusy(false);
    }
  });

  return (
    <form ref={form.formRef} id={id} className="form" noValidate onSubmit={submit} aria-busy={busy}>
      <PasswordField label={labels.old} autoComplete="current-password" {...field('old')} />
      <PasswordField label={labels.next} autoComplete="new-password" hint={hint} {...field('next')} />
      <PasswordField label={labels.repeat} autoComplete="new-password" {...field('repeat')} />
      <FailureAlert failure={failure} />
      <button type="submit" className="button primary block" disabled={busy}>
        {labels.submit}
      </button>
    </form>
  );
}
