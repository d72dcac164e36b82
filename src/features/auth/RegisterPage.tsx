/**
 * /register: every rule of SPEC.md §5 checked inline before sending; the captcha image with refresh (its
 * code is spent by any attempt, so a refusal fetches a new one); an invitation code from ?invite= (the
 * invite link). Success logs the member in through the session machine.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useSiteDemo } from '../../api/site-config';
import { session } from '../../state/session';
import { useUser } from '../../state/user-store';
import type { Failure } from '../../machines/failure';
import { Field, SelectField } from '../../ui/Field';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';
import { CaptchaDemoHint, CaptchaImage, useCaptcha } from './Captcha';
import { FailureAlert } from '../../ui/FailureAlert';
import { PasswordField } from '../../ui/PasswordField';
import { FormCard } from '../../ui/FormCard';
import { fieldOfFailure, QUESTION_CHOICES, REGISTER_INITIAL, validateRegister } from './register-form';
import { PATHS } from '../../lib/paths';
import '../../ui/auth.css';

export function RegisterPage() {
  const demo = useSiteDemo();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUser();
  const [params] = useSearchParams();
  const [generation, setGeneration] = useState(0);
  const { captcha, failed, refresh } = useCaptcha(generation);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const validate = useCallback(validateRegister, []);
  const form = useForm({ ...REGISTER_INITIAL, invite: params.get('invite') ?? '' }, validate);
  const field = translatedFields(form.bind, t);

  const submit = form.handleSubmit(async (v) => {
    if (!captcha) {
      refresh();
      return;
    }
    setBusy(true);
    setFailure(null);
    const question =
      v.questionChoice === 'custom' ? v.customQuestion.trim() : t(`auth.questions.${v.questionChoice}`);
    const optional = (value: string) => (value.trim() ? value.trim() : undefined);
    try {
      const result = await session.register({
        username: v.username.trim(),
        password: v.password,
        repassword: v.repassword,
        key: v.key,
        rekey: v.rekey,
        email: optional(v.email),
        phone: optional(v.phone),
        invite: optional(v.invite),
        verify: v.verify.trim(),
        verifyKey: captcha.key,
        question,
        answer: v.answer,
      });
      if (!result) {
        // /register stays open to a stored user (only /login is guarded), so leave it the way login does.
        void navigate(PATHS.home, { replace: true });
        return;
      }
      // The code was spent by this attempt: clear it (before pinning an error that may be on it).
      form.setValue('verify', '');
      setGeneration((g) => g + 1);
      const name = fieldOfFailure(result);
      if (name && typeof result.code === 'number') form.setServerError(name, `errors.e${result.code}`);
      else setFailure(result);
    } finally {
      setBusy(false);
    }
  });

  return (
    <div className="page auth">
      <FormCard title={t('auth.registerTitle')}>
        {user && (
          // The guard leaves /register open to a member; registering means leaving this session first.
          <div className="question-box" role="status">
            <p>{t('auth.alreadyIn', { name: user.username })}</p>
            <button type="button" className="button" onClick={() => void session.logout()}>
              {t('auth.logoutToRegister')}
            </button>
          </div>
        )}
        <form
          ref={form.formRef}
          className="form"
          noValidate
          onSubmit={submit}
          aria-busy={busy}
          hidden={!!user}
        >
          <Field
            label={t('auth.username')}
            autoComplete="username"
            maxLength={25}
            hint={t('auth.usernameHint')}
            {...field('username')}
          />
          <p className="hint">{t('auth.contactHint')}</p>
          <Field label={t('auth.email')} type="email" autoComplete="email" {...field('email')} />
          <Field label={t('auth.phone')} type="tel" autoComplete="tel" {...field('phone')} />
          <PasswordField
            label={t('auth.password')}
            autoComplete="new-password"
            hint={t('auth.passwordHint')}
            {...field('password')}
          />
          <PasswordField label={t('auth.repassword')} autoComplete="new-password" {...field('repassword')} />
          <PasswordField
            label={t('auth.key')}
            autoComplete="off"
            hint={t('auth.keyHint')}
            {...field('key')}
          />
          <PasswordField label={t('auth.rekey')} autoComplete="off" {...field('rekey')} />
          <SelectField
            label={t('auth.question')}
            name="questionChoice"
            value={form.values.questionChoice}
            onChange={(value) => form.setValue('questionChoice', value)}
            options={QUESTION_CHOICES.map((q) => ({ value: q, label: t(`auth.questions.${q}`) }))}
          />
          {form.values.questionChoice === 'custom' && (
            <Field label={t('auth.customQuestion')} {...field('customQuestion')} />
          )}
          <Field label={t('auth.answer')} autoComplete="off" {...field('answer')} />
          <Field
            label={t('auth.invite')}
            autoComplete="off"
            hint={t('auth.inviteHint')}
            {...field('invite')}
          />
          <Field
            label={t('auth.verify')}
            inputMode="numeric"
            autoComplete="off"
            hint={demo && captcha?.code ? <CaptchaDemoHint captcha={captcha} /> : undefined}
            addon={<CaptchaImage captcha={captcha} failed={failed} onRefresh={refresh} />}
            {...field('verify')}
          />
          <FailureAlert failure={failure} />
          <div className="form-actions">
            <button type="submit" className="button primary block" disabled={busy}>
              {busy ? t('auth.registering') : t('common.register')}
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
