/**
 * /userforget: reset a forgotten security key with the login password and the secret answer (API.md
 * settles that a key can be reset). The reset ends every session and holds withdrawals for 24 hours, so
 * the member is told, and the local session ends through the machine without a further server call. A member
 * with two-factor authentication gives the authenticator or a recovery code (the call takes `code` only, no
 * passkey: docs/API.md); the field shows when the device knows two-factor is on, or when the server asks (6101).
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { session } from '../../state/session';
import { toastStore } from '../../state/toast-store';
import { useUser } from '../../state/user-store';
import { toFailure, type Failure } from '../../machines/failure';
import { Field } from '../../ui/Field';
import { QueryState } from '../../ui/QueryState';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';
import { FailureAlert } from '../../ui/FailureAlert';
import { PasswordField } from '../../ui/PasswordField';
import { SecondFactorField } from '../../ui/SecondFactorField';
import { useSecondFactorInput } from '../../ui/use-second-factor';
import { FormCard } from '../../ui/FormCard';
import { useSecurityOverview } from '../../lib/security';
import { compact, keyRule, passwordRule, repeatRule, requiredRule } from '../../lib/account-rules';
import { useQuestion } from './useQuestion';
import '../../ui/auth.css';

const INITIAL = { password: '', answer: '', key: '', rekey: '' };

export function UserForgetPage() {
  const { t } = useTranslation();
  const user = useUser();
  const username = user?.username ?? '';
  const q = useQuestion();
  const { lookup } = q;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const security = useSecurityOverview();
  const second = useSecondFactorInput(security.data?.twoFactor.on ?? false);
  const validate = useCallback(
    (v: typeof INITIAL) =>
      compact({
        password: passwordRule(v.password),
        answer: requiredRule(v.answer, 'auth.answerRequired'),
        key: keyRule(v.key),
        rekey: repeatRule(v.rekey, v.key, 'errors.keysDiffer'),
      }),
    [],
  );
  const form = useForm(INITIAL, validate);
  const field = translatedFields(form.bind, t);

  useEffect(() => {
    if (username) void lookup(username);
    // lookup is a fresh closure each render; the username alone decides when to ask.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [username]);

  const submit = form.handleSubmit(async (v) => {
    const factor = second.factor();
    if (!factor) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.call('/api/index/forgetKey', { username, ...v, ...factor }, { silent: true });
      second.clear();
      toastStore.show(t('auth.keyResetDone'), 'success');
      // The engine revoked every token: end the local session the way an expired one ends.
      session.expired();
      session.acknowledgeExpired();
    } catch (error) {
      const f = toFailure(error);
      if (!second.refused(f)) setFailure(f);
    } finally {
      setBusy(false);
    }
  });

  if (q.question === null) {
    return (
      <div className="page auth">
        <section className="card">
          <QueryState
            status={q.failure ? 'error' : 'loading'}
            error={q.failure}
            onRetry={() => void lookup(username)}
          />
        </section>
      </div>
    );
  }

  return (
    <div className="page auth">
      <FormCard title={t('auth.userforgetTitle')}>
        <p className="auth-intro">{t('auth.userforgetIntro', { name: username })}</p>
        <form ref={form.formRef} className="form" noValidate onSubmit={submit} aria-busy={busy}>
          <PasswordField label={t('auth.password')} autoComplete="current-password" {...field('password')} />
          <div className="question-box">
            <span className="muted">{t('auth.question')}</span>
            <strong>{q.question}</strong>
          </div>
          <Field label={t('auth.answer')} autoComplete="off" {...field('answer')} />
          <PasswordField
            label={t('auth.newKey')}
            autoComplete="off"
            hint={t('auth.keyHint')}
            {...field('key')}
          />
          <PasswordField label={t('auth.rekey')} autoComplete="off" {...field('rekey')} />
          {second.shown && (
            <SecondFactorField
              action="security"
              code={second.code}
              onCode={second.onCode}
              error={second.error}
              disabled={busy}
              autoFocus={!security.data?.twoFactor.on}
            />
          )}
          <p className="hint">{t('auth.keyResetNote')}</p>
          <FailureAlert failure={failure} />
          <div className="form-actions">
            <button type="submit" className="button primary block" disabled={busy}>
              {t('auth.resetKey')}
            </button>
          </div>
        </form>
      </FormCard>
    </div>
  );
}
