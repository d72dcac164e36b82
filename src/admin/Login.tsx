/** Operator login: username, password and the 6-digit code of the operator's authenticator app (TOTP). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, type FieldProps } from '../ui/Field';
import { AdminApiError, adminCall } from './api';
import { ErrorAlert } from './components';
import { LanguagePicker } from './LanguagePicker';
import { errorMessage } from './hooks';
import { useSession } from './session';

const TOTP = /^\d{6}$/;

export function LoginScreen() {
  const { t } = useTranslation();
  const { signIn, ended } = useSession();
  const [values, setValues] = useState({ username: '', password: '', totp: '' });
  const { username, password, totp } = values;
  const setTotp = (value: string) => setValues((v) => ({ ...v, totp: value }));
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

  /** One of the three fields, tied to its value and its error; `clean` filters what is typed. */
  const field = (name: keyof typeof values, props: FieldProps, clean = (text: string) => text) => (
    <Field
      {...props}
      name={name}
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: clean(e.target.value) }))}
      error={errors[name]}
    />
  );

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
          {field('username', { label: t('field.username'), autoComplete: 'username' })}
          {field('password', {
            label: t('login.password'),
            type: 'password',
            autoComplete: 'current-password',
          })}
          {field(
            'totp',
            {
              label: t('login.totp'),
              inputMode: 'numeric',
              autoComplete: 'one-time-code',
              maxLength: 6,
              hint: t('login.totpHint'),
            },
            (text) => text.replace(/\D/g, '').slice(0, 6),
          )}
          <ErrorAlert text={error} />
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? t('login.submitting') : t('login.submit')}
          </button>
        </form>
        <LanguagePicker />
      </div>
    </main>
  );
}
