/** /login: account (username, e-mail or phone) and password, through the session machine. */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { session } from '../../app/session';
import type { Failure } from '../../machines/failure';
import { Field } from '../../ui/Field';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';
import { FailureAlert } from '../../ui/FailureAlert';
import { PasswordField } from '../../ui/PasswordField';
import { accountRule, compact, passwordRule } from '../../lib/account-rules';
import '../../ui/auth.css';

const INITIAL = { username: '', password: '' };

export function LoginPage() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
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
      const result = await session.login({ username: values.username.trim(), password: values.password });
      if (result) setFailure(result);
    } finally {
      setBusy(false);
    }
  });

  return (
    <div className="page auth">
      <section className="card auth-card" aria-labelledby="login-title">
        <h2 id="login-title" className="section-title">
          {t('auth.loginTitle')}
        </h2>
        <form ref={form.formRef} className="form" noValidate onSubmit={submit} aria-busy={busy}>
          <Field label={t('auth.account')} autoComplete="username" {...field('username')} />
          <PasswordField label={t('auth.password')} autoComplete="current-password" {...field('password')} />
          <FailureAlert failure={failure} />
          <div className="form-actions">
            <button type="submit" className="button primary block" disabled={busy}>
              {busy ? t('auth.loggingIn') : t('common.login')}
            </button>
          </div>
          <div className="form-links">
            <Link to="/register">{t('auth.toRegister')}</Link>
            <Link to="/forget">{t('auth.toForget')}</Link>
          </div>
        </form>
      </section>
    </div>
  );
}
