/** The pledge of one mining plan: the amount (checked against the plan's limits first) and the security key. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MachineView } from '../../../engine/index';
import { api } from '../../api';
import { useFigure } from '../../ui/Amount';
import { Field } from '../../ui/Field';
import { KeyDialog } from '../../ui/KeyDialog';
import { parseAmountText } from '../../../engine/index';
import { checkAmount, cleanAmount } from '../../lib/amount';

export function PledgeDialog({
  machine,
  onClose,
  onDone,
}: {
  machine: MachineView;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const figure = useFigure();
  const money = (v: string) => figure(v, { unit: machine.currency });
  const base = checkAmount(amount, machine.min);
  const max = parseAmountText(machine.max);
  const value = parseAmountText(amount);
  const reason = base ?? (max !== null && value !== null && value > max ? 'overMaximum' : null);
  const error =
    shown && reason
      ? t(`finance.amountError.${reason}`, { min: money(machine.min), max: money(machine.max) })
      : undefined;

  async function pledge(key: string) {
    setShown(true);
    if (reason) return;
    setBusy(true);
    try {
      await api.call('/api/mining/buy', { id: machine.id, amount, key });
      onDone();
    } catch {
      setBusy(false);
    }
  }

  return (
    <KeyDialog
      title={t('mining.pledge', { name: machine.name })}
      confirmLabel={t('mining.confirm')}
      busy={busy}
      onClose={onClose}
      onConfirm={(key) => void pledge(key)}
    >
      <Field
        label={t('finance.amount')}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        error={error}
        hint={t('mining.limits', { min: money(machine.min), max: money(machine.max) })}
        onChange={(e) => setAmount(cleanAmount(e.target.value))}
        onBlur={() => setShown(true)}
        addon={<span className="unit">{machine.currency}</span>}
      />
      <p className="terms">{t('mining.terms')}</p>
    </KeyDialog>
  );
}
