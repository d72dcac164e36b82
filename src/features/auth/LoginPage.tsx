/**
 * /login: account (username, e-mail or phone) and password, through the session machine. A member with
 * two-factor authentication logging in on a new device is asked (6101) for the authenticator code or a
 * recovery code in a second step; "Log in with a passkey" logs in without a password (docs/SPEC.md §10).
 */
import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { session } from '../../state/session';
import type { Failure } from '../../machines/failure';
import { Field } from '../../ui/Field';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';
import { FailureAlert } from '../../ui/FailureAlert';
import { PasswordField } from '../../ui/PasswordField';
import { SecondFactorField, secondFactorError, secondFactorProblem } from '../../ui/SecondFactorField';
import { FormCard } from '../../ui/FormCard';
import { accountRule, compact, passwordRule } from '../../lib/account-rules';
import { passkeyCancelled, passkeyLoginAnswer, SECOND_FACTOR_REQUIRED } from '../../lib/security';
import { isApiError } from '../../api/api-error';
import { PATHS } from '../../lib/paths';
import '../../ui/auth.css';

const INITIAL = { username: '', password: '' };

export function LoginPage() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  /** The password was right; the server asks this new device for the second factor. */
  const [pending, setPending] = useState<{ username: string; password: string } | null>(null);
  const validate = useCallback(
    (v: typeof INITIAL) => compact({ username: accountRule(v.username), password: passwordRule(v.password) }),
    [],
  );
  const form = useForm(INITIAL, validate);
  const field = translatedFields(form.bind, t);

  const submit = form.handleSubmit(async (values) => {
    setBusy(true);
    setFailure(null);
    try {
      const credentials = { username: values.username.trim(), password: values.password };
      const result = await session.login(credentials);
      if (result?.code === SECOND_FACTOR_REQUIRED) setPending(credentials);
      else if (result) setFailure(result);
    } finally {
      setBusy(false);
    }
  });

  async function withPasskey() {
    setBusy(true);
    setFailure(null);
    try {
      const answer = await passkeyLoginAnswer();
      const result = await session.login({ passkey: answer });
      if (result) setFailure(result);
    } catch (error) {
      // A refused call was presented by the API client; a dismissed prompt is no failure.
      if (!isApiError(error) && !passkeyCancelled(error)) setFailure({ code: 'EPASSKEY', msg: '' });
    } finally {
      setBusy(false);
    }
  }

  if (pending) {
    return (
      <SecondStep
        credentials={pending}
        onBack={() => setPending(null)}
        onPasskey={() => void withPasskey()}
        passkeyBusy={busy}
      />
    );
  }

  return (
    <div className="page auth">
      <FormCard title={t('auth.loginTitle')}>
        <form ref={form.formRef} className="form" noValidate onSubmit={submit} aria-busy={busy}>
          <Field label={t('auth.account')} autoComplete="username webauthn" {...field('username')} />
          <PasswordField label={t('auth.password')} autoComplete="current-password" {...field('password')} />
          {failure?.code === 'EPASSKEY' ? (
            <p className="form-error" role="alert">
              {t('security.passkeyFailed')}
            </p>
          ) : (
            <FailureAlert failure={failure} />
          )}
          <div className="form-actions">
            <button type="submit" className="button primary block" disabled={busy}>
              {busy ? t('auth.loggingIn') : t('common.login')}
            </button>
          </div>
          <div className="form-actions">
            <button type="button" className="button block" disabled={busy} onClick={() => void withPasskey()}>
              {t('security.loginWithPasskey')}
            </button>
          </div>
          <div className="form-links">
            <Link to={PATHS.register}>{t('auth.toRegister')}</Link>
            <Link to={PATHS.forget}>{t('auth.toForget')}</Link>
          </div>
        </form>
      </FormCard>
    </div>
  );
}

/** The second step on a new device: the authenticator's code or a recovery code, or a passkey instead. */
function SecondStep({
  credentials,
  onBack,
  onPasskey,
  passkeyBusy,
}: {
  credentials: { username: string; password: string };
  onBack: () => void;
  onPasskey: () => void;
  passkeyBusy: boolean;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = secondFactorProblem(code);
    if (problem) return setError(secondFactorError(problem, t));
    setBusy(true);
    setFailure(null);
    try {
      const result = await session.login({ ...credentials, code: code.replace(/\s+/g, '') });
      if (result) setFailure(result);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page auth">
      <FormCard title={t('security.loginStep.title')}>
        <p className="hint">{t('security.loginStep.intro')}</p>
        <form className="form" noValidate onSubmit={(e) => void submit(e)} aria-busy={busy}>
          <SecondFactorField
            action="security"
            code={code}
            onCode={(value) => {
              setCode(value);
              setError(undefined);
            }}
            error={error}
            autoFocus
          />
          <FailureAlert failure={failure} />
          <div className="form-actions">
            <button type="submit" className="button primary block" disabled={busy}>
              {busy ? t('auth.loggingIn') : t('security.loginStep.verify')}
            </button>
          </div>
          <div className="form-actions">
            <button type="button" className="button block" disabled={busy || passkeyBusy} onClick={onPasskey}>
              {t('security.usePasskey')}
            </button>
          </div>
          <div className="form-links">
            <button type="button" className="text-link" onClick={onBack}>
              {t('security.loginStep.back')}
            </button>
          </div>
        </form>
      </FormCard>
    </div>
  );
}
