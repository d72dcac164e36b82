/** Adds margin to, or takes margin from, an isolated position (K5: never below the initial margin). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { useFigure } from '../../ui/Amount';
import { FormDialog } from '../../ui/FormDialog';
import { Field } from '../../ui/Field';
import { checkAmount, cleanAmount } from '../../lib/amount';
import { Segmented } from '../../ui/Segmented';
import type { PositionDialogProps } from './position-dialog';

export function MarginDialog({ position, onClose, onDone }: PositionDialogProps) {
  const { t } = useTranslation();
  const figure = useFigure();
  const [direction, setDirection] = useState<'add' | 'reduce'>('add');
  const [amount, setAmount] = useState('');
  const reason = checkAmount(amount, '0.000001');
  const error = reason ? t(`wallet.amountError.${reason}`, { min: '0.000001' }) : undefined;

  async function send() {
    const answer = await api.call('/api/position/margin', {
      id: position.id,
      amount: direction === 'add' ? amount : `-${amount}`,
    });
    toastStore.show(t('trade.marginNow', { amount: figure(answer.margin) }), 'success');
    onDone();
  }

  return (
    <FormDialog
      title={t('trade.adjustMarginOf', { symbol: position.symbol })}
      submitLabel={t('common.confirm')}
      onClose={onClose}
      invalid={reason !== null}
      onSubmit={send}
    >
      {(attempted) => (
        <>
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
            error={attempted ? error : undefined}
            onChange={(e) => setAmount(cleanAmount(e.target.value))}
            addon={<span className="unit">USDT</span>}
          />
          <p className="terms">{t('trade.marginRule')}</p>
        </>
      )}
    </FormDialog>
  );
}
