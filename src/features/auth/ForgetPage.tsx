/**
 * /forget: reset the login password with the secret answer. Step one finds the account's question; step two
 * sets the new password. The engine then holds withdrawals for 24 hours (API.md), which the page says. A member
 * with two-factor authentication is asked for the authenticator or a recovery code when the server says so
 * (6101), as the login asks a new device; a member without it sees the form as it always was.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { toFailure, type Failure } from '../../machines/failure';
import { Field } from '../../ui/Field';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';
import { FailureAlert } from '../../ui/FailureAlert';
import { PasswordField } from '../../ui/PasswordField';
import { SecondFactorField } from '../../ui/SecondFactorField';
import { useSecondFactorInput } from '../../ui/use-second-factor';
import { FormCard } from '../../ui/FormCard';
import { accountRule, compact, passwordRule, repeatRule, requiredRule } from '../../lib/account-rules';
import { useQuestion } from './useQuestion';
import { PATHS } from '../../lib/paths';
import '../../ui/auth.css';

const INITIAL = { username: '', answer: '', password: '', repassword: '' };

export function ForgetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const q = useQuestion();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  // Logged out, the device cannot know whether the account has two-factor on: the server's 6101 tells.
  const second = useSecondFactorInput(false);
  const hasQuestion = q.question !== null;
  const validate = useCallback(
    (v: typeof INITIAL) =>
      compact({
        username: accountRule(v.username),
        ...(hasQuestion
          ? {
              answer: requiredRule(v.answer, 'auth.answerRequired'),
              password: passwordRule(v.password),
              repassword: repeatRule(v.repassword, v.password, 'errors.passwordsDiffer'),
            }
          : {}),
      }),
    [hasQuestion],
  );
  const form = useForm(INITIAL, validate);
  const { formRef } = form;

  // The question appeared: the next thing to type is its answer.
  useEffect(() => {
    if (hasQuestion) formRef.current?.querySelector<HTMLInputElement>('input[name="answer"]')?.focus();
  }, [hasQuestion, formRef]);
  const field = translatedFields(form.bind, t);

  const submit = form.handleSubmit(async (v) => {
    if (!hasQuestion) {
      await q.lookup(v.username);
      return;
    }
    const factor = second.factor();
    if (!factor) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.call(
        '/api/index/forget',
        {
          username: v.username.trim(),
          answer: v.answer,
          password: v.password,
          repassword: v.repassword,
          ...factor,
        },
        { silent: true },
      );
      second.clear();
      toastStore.show(t('auth.forgetDone'), 'success');
      void navigate(PATHS.login, { replace: true });
    } catch (error) {
      const f = toFailure(error);
      if (!second.refused(f)) setFailure(f);
    } finally {
      setBusy(false);
    }
  });

  const shownFailure = failure ?? q.failure;
  return (
    <div className="page auth">
      <FormCard title={t('auth.forgetTitle')}>
        <p className="auth-intro">{t('auth.forgetIntro')}</p>
        <form ref={form.formRef} className="form" noValidate onSubmit={submit} aria-busy={busy || q.busy}>
          <Field
            label={t('auth.account')}
            autoComplete="username"
            readOnly={hasQuestion}
            addon={
              hasQuestion ? (
                <button
                  type="button"
                  className="toggle-visibility"
                  onClick={() => {
                    second.reset();
                    q.clear();
                  }}
                >
                  {t('auth.change')}
                </button>
              ) : undefined
            }
            {...field('username')}
          />
          {hasQuestion && (
            <>
              <div className="question-box" aria-live="polite">
                <span className="muted">{t('auth.question')}</span>
                <strong>{q.question}</strong>
              </div>
              <Field label={t('auth.answer')} autoComplete="off" {...field('answer')} />
              <PasswordField
                label={t('auth.newPassword')}
                autoComplete="new-password"
                {...field('password')}
              />
              <PasswordField
                label={t('auth.repassword')}
                autoComplete="new-password"
                {...field('repassword')}
              />
              {second.shown && (
                <SecondFactorField
                  action="security"
                  code={second.code}
                  onCode={second.onCode}
                  error={second.error}
                  disabled={busy}
                  autoFocus
                />
              )}
              <p className="hint">{t('auth.resetHold')}</p>
            </>
          )}
          <FailureAlert failure={shownFailure} />
          <div className="form-actions">
            <button type="submit" className="button primary block" disabled={busy || q.busy}>
              {hasQuestion ? t('auth.resetPassword') : t('auth.next')}
            </button>
          </div>
          <div className="form-links">
            <Link to={PATHS.login}>{t('auth.toLogin')}</Link>
          </div>
        </form>
      </FormCard>
    </div>
  );
}
