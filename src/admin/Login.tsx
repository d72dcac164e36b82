/** Operator login: username, password and the 6-digit code of the operator's authenticator app (TOTP). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../ui/Field';
import { AdminApiError, adminCall } from './api';
import { LanguagePicker } from './LanguagePicker';
import { errorMessage } from './hooks';
import { useSession } from './session';

const TOTP = /^\d{6}$/;

export function LoginScreen() {
  const { t } = useTranslation();
  const { signIn, ended } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const errors = {
    username: touched && !username.trim() ? t('login.usernameRequired') : undefined,
    password: touched && !password ? t('login.passwordRequired') : undefined,
    totp: touched && !TOTP.test(totp) ? t('login.totpInvalid') : undefined,
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password || !TOTP.test(totp)) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await adminCall('POST /api/admin/login', { username: username.trim(), password, totp });
      signIn(answer.token, answer.operator);
    } catch (err) {
      // A code is good for one attempt: the operator types the next one.
      setTotp('');
      setTouched(false);
      setError(
        err instanceof AdminApiError && err.code === 423
          ? t('login.locked', { msg: err.msg })
          : errorMessage(t, err),
      );
      setBusy(false);
    }
  }

  return (
    <main className="admin-login" id="main">
      <div className="admin-login-card">
        <h1>{t('app.title')}</h1>
        <h2>{t('login.title')}</h2>
        {ended === 'expired' && (
          <p className="admin-warning" role="status">
            {t('app.sessionExpired')}
          </p>
        )}
        <form className="form" onSubmit={(e) => void submit(e)} noValidate>
          <Field
            label={t('field.username')}
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            error={errors.username}
          />
          <Field
            label={t('login.password')}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={errors.password}
          />
          <Field
            label={t('login.totp')}
            name="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={totp}
            onChange={(e) => setTotp(e.target.value.replace(/\D/g, '').slice(0, 6))}
            hint={t('login.totpHint')}
            error={errors.totp}
          />
          {error && (
            <p className="admin-error-text" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? t('login.submitting') : t('login.submit')}
          </button>
        </form>
        <LanguagePicker />
      </div>
    </main>
  );
}
