/** /user/bankAdd: bank name (required, SPEC.md §5), card number (8-30 digits) and holder, checked inline. */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { sendWrite } from '../../sync/app-writes';
import { toastStore } from '../../state/toast-store';
import { toFailure, type Failure } from '../../machines/failure';
import { Field } from '../../ui/Field';
import { OfflineNote } from '../../ui/OfflineNote';
import { useForm } from '../../ui/useForm';
import { translatedFields } from '../../ui/translated-fields';
import { FailureAlert } from '../../ui/FailureAlert';
import { FormCard } from '../../ui/FormCard';
import { compact, requiredRule } from '../../lib/account-rules';
import type { BankAddBody } from './bank-types';
import { PATHS } from '../../lib/paths';
import './account.css';
import '../../ui/auth.css';

const INITIAL = { bankName: '', cardNumber: '', holder: '' };

export function cardNumberRule(value: string): string | undefined {
  const digits = value.replace(/[\s-]/g, '');
  if (!digits) return 'bank.numberRequired';
  return /^\d{8,30}$/.test(digits) ? undefined : 'bank.numberInvalid';
}

export function validateBank(v: typeof INITIAL) {
  return compact({
    bankName: requiredRule(v.bankName, 'bank.nameRequired'),
    cardNumber: cardNumberRule(v.cardNumber),
    holder: requiredRule(v.holder, 'bank.holderRequired'),
  });
}

export function BankAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const validate = useCallback(validateBank, []);
  const form = useForm(INITIAL, validate);
  const field = translatedFields(form.bind, t);

  const submit = form.handleSubmit(async (v) => {
    setBusy(true);
    setFailure(null);
    try {
      const body: BankAddBody = {
        bankName: v.bankName.trim(),
        cardNumber: v.cardNumber.replace(/[\s-]/g, ''),
        holder: v.holder.trim(),
      };
      // Through the outbox: offline it waits, listed on /user/bank. The card number is withheld from the
      // device's storage (kept in this tab's memory until sent), like a withdrawal's key.
      const outcome = await sendWrite('/api/bank/add', body, { secret: ['cardNumber'], silent: true });
      if (!outcome.queued) toastStore.show(t('bank.added'), 'success');
      void navigate(PATHS.userBank, { replace: true });
    } catch (error) {
      setFailure(toFailure(error));
    } finally {
      setBusy(false);
    }
  });

  return (
    <div className="page account">
      <OfflineNote />
      <FormCard title={t('bank.addTitle')}>
        {/* Demo mode keeps only the last four digits; say so before anyone types a real number. */}
        <p className="hint">{t('bank.privacy')}</p>
        <form ref={form.formRef} className="form" noValidate onSubmit={submit} aria-busy={busy}>
          <Field label={t('bank.bankName')} autoComplete="off" {...field('bankName')} />
          <Field
            label={t('bank.cardNumber')}
            inputMode="numeric"
            autoComplete="cc-number"
            dir="ltr"
            {...field('cardNumber')}
          />
          <Field label={t('bank.holder')} autoComplete="cc-name" {...field('holder')} />
          <FailureAlert failure={failure} />
          <button type="submit" className="button primary block" disabled={busy}>
            {t('bank.save')}
          </button>
        </form>
      </FormCard>
    </div>
  );
}
