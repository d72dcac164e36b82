/**
 * /user/cert: identity verification (real name, document number, front and back photos). A member whose
 * verification is under review or passed sees its status instead of the form.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { toFailure, type Failure } from '../../machines/failure';
import { Field } from '../../ui/Field';
import { OfflineNote } from '../../ui/OfflineNote';
import { QueryState } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';
import { FailureAlert } from '../../ui/FailureAlert';
import { FormCard } from '../../ui/FormCard';
import { compact, requiredRule } from '../../lib/account-rules';
import { UploadField } from './UploadField';
import { useProfile } from '../../state/use-profile';
import './account.css';
import '../../ui/auth.css';

const INITIAL = { realName: '', idNumber: '', frontImage: '', backImage: '' };

/** The engine's shape for a document number: 5-32 letters, digits or dashes. */
export function idNumberRule(value: string): string | undefined {
  const v = value.trim();
  if (!v) return 'account.cert.idRequired';
  return /^[A-Za-z0-9-]{5,32}$/.test(v) ? undefined : 'account.cert.idInvalid';
}

export function validateCert(v: typeof INITIAL) {
  return compact({
    realName: requiredRule(v.realName, 'account.cert.nameRequired'),
    idNumber: idNumberRule(v.idNumber),
    frontImage: requiredRule(v.frontImage, 'account.cert.frontRequired'),
    backImage: requiredRule(v.backImage, 'account.cert.backRequired'),
  });
}

export function CertPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  // The server's answer to this screen's own submission: under review, before the replica has caught up.
  const [submitted, setSubmitted] = useState(false);
  const validate = useCallback(validateCert, []);
  const form = useForm(INITIAL, validate);
  const field = translatedFields(form.bind, t);
  const shownError = (name: 'frontImage' | 'backImage') => {
    const key = form.shown(name);
    return key && t(key);
  };

  const submit = form.handleSubmit(async (v) => {
    setBusy(true);
    setFailure(null);
    try {
      await api.call(
        '/api/user/cert',
        {
          realName: v.realName.trim(),
          idNumber: v.idNumber.trim(),
          frontImage: v.frontImage,
          backImage: v.backImage,
        },
        { silent: true },
      );
      toastStore.show(t('account.cert.submitted'), 'success');
      setSubmitted(true);
      profile.reload();
    } catch (error) {
      setFailure(toFailure(error));
    } finally {
      setBusy(false);
    }
  });

  if (profile.status !== 'ready') {
    return (
      <div className="page account">
        <section className="card">
          <QueryState status={profile.status} error={profile.error} onRetry={profile.reload} />
        </section>
      </div>
    );
  }

  const replicated = profile.data.realNameStatus;
  const status =
    submitted && (replicated === 'none' || replicated === 'rejected') ? 'under review' : replicated;
  if (status === 'under review' || status === 'passed') {
    return (
      <div className="page account">
        <FormCard title={t('account.cert.title')}>
          <p>
            <StatusBadge status={status} />
          </p>
          <p className="hint">
            {status === 'passed' ? t('account.cert.passedNote') : t('account.cert.reviewNote')}
          </p>
        </FormCard>
      </div>
    );
  }

  return (
    <div className="page account">
      <OfflineNote />
      <FormCard title={t('account.cert.title')}>
        {status === 'rejected' && <p className="form-error">{t('account.cert.rejectedNote')}</p>}
        <p className="hint">{t('account.cert.intro')}</p>
        <form ref={form.formRef} className="form" noValidate onSubmit={submit} aria-busy={busy}>
          <Field label={t('account.cert.realName')} autoComplete="name" {...field('realName')} />
          <Field
            label={t('account.cert.idNumber')}
            autoComplete="off"
            hint={t('account.cert.idHint')}
            {...field('idNumber')}
          />
          <div className="upload-grid">
            <UploadField
              label={t('account.cert.front')}
              name="frontImage"
              error={shownError('frontImage')}
              onUploaded={(url) => form.setValue('frontImage', url)}
            />
            <UploadField
              label={t('account.cert.back')}
              name="backImage"
              error={shownError('backImage')}
              onUploaded={(url) => form.setValue('backImage', url)}
            />
          </div>
          <FailureAlert failure={failure} />
          <button type="submit" className="button primary block" disabled={busy}>
            {t('account.cert.submit')}
          </button>
        </form>
      </FormCard>
    </div>
  );
}
