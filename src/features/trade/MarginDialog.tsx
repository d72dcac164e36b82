/** Adds margin to, or takes margin from, an isolated position (K5: never below the initial margin). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LivePosition } from '../../../engine/index';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { useFigure } from '../../ui/Amount';
import { Dialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { checkAmount, cleanAmount } from '../../lib/amount';
import { Segmented } from '../../ui/Segmented';

export function MarginDialog({
  position,
  onClose,
  onDone,
}: {
  position: LivePosition;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const figure = useFigure();
  const [direction, setDirection] = useState<'add' | 'reduce'>('add');
  const [amount, setAmount] = useState('');
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const reason = checkAmount(amount, '0.000001');
  const error = shown && reason ? t(`wallet.amountError.${reason}`, { min: '0.000001' }) : undefined;
  const formId = 'margin-form';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setShown(true);
    if (reason) return;
    setBusy(true);
    try {
      const answer = await api.call('/api/position/margin', {
        id: position.id,
        amount: direction === 'add' ? amount : `-${amount}`,
      });
      toastStore.show(t('trade.marginNow', { amount: figure(answer.margin) }), 'success');
      onDone();
    } catch {
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={t('trade.adjustMarginOf', { symbol: position.symbol })}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={formId} className="button primary" disabled={busy}>
            {t('common.confirm')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="terms">{t('trade.marginCurrent', { amount: figure(position.margin) })}</p>
        <Segmented
          label={t('trade.adjustMargin')}
          value={direction}
          onChange={setDirection}
          options={[
            { value: 'add', label: t('trade.addMargin') },
            { value: 'reduce', label: t('trade.reduceMargin') },
          ]}
        />
        <Field
          label={t('finance.amount')}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          error={error}
          onChange={(e) => setAmount(cleanAmount(e.target.value))}
          addon={<span className="unit">USDT</span>}
        />
        <p className="terms">{t('trade.marginRule')}</p>
      </form>
    </Dialog>
  );
}
