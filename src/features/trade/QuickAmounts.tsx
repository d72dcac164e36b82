/**
 * The 25% / 50% / 75% / 100% buttons the order forms share (issue 26 item 2): the spot form (of the free
 * USDT for a buy, of the free coin for a sell), the contract form (of the free contract balance, margin and
 * fee within it) and the close dialog (of the position's size). Each form turns the quarters it is given into
 * its own exact amount (order-rules.ts); the buttons only say which share was asked for. Beside them, the
 * spot and contract forms' amount entry (by quantity or by total).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cleanAmount } from '../../lib/amount';
import { Field } from '../../ui/Field';
import { Segmented } from '../../ui/Segmented';

export const QUARTERS = [1, 2, 3, 4] as const;
export type Quarters = (typeof QUARTERS)[number];

export interface QuickAmountsProps {
  /** The accessible name of each button, given its percentage ("50% of what is available"). */
  labelFor: (percent: number) => string;
  onPick: (quarters: Quarters) => void;
  disabled?: boolean;
}

export function QuickAmounts({ labelFor, onPick, disabled }: QuickAmountsProps) {
  const { t } = useTranslation();
  return (
    <div className="quick-amounts" role="group" aria-label={t('tradeScreen.quick')}>
      {QUARTERS.map((q) => (
        <button
          key={q}
          type="button"
          className="segment"
          aria-label={labelFor(q * 25)}
          disabled={disabled}
          onClick={() => onPick(q)}
        >
          {q * 25}%
        </button>
      ))}
    </div>
  );
}

/** What the amount field holds: a quantity of the base coin, or a total in USDT. */
export type AmountBy = 'quantity' | 'total';

export interface AmountEntryProps {
  base: string;
  by: AmountBy;
  onBy: (by: AmountBy) => void;
  amount: string;
  onAmount: (amount: string) => void;
  error?: string;
  hint?: ReactNode;
}

/**
 * The order's amount in the spot and contract forms: the switch between entry by quantity and by total
 * (switching clears the amount) and the amount field, in the base coin or in USDT.
 */
export function AmountEntry({ base, by, onBy, amount, onAmount, error, hint }: AmountEntryProps) {
  const { t } = useTranslation();
  return (
    <>
      <Segmented
        label={t('tradeScreen.amountBy')}
        value={by}
        onChange={(v) => {
          onBy(v);
          onAmount('');
        }}
        options={[
          { value: 'quantity', label: t('tradeScreen.byQuantity', { base }) },
          { value: 'total', label: t('tradeScreen.byTotal') },
        ]}
      />
      <Field
        label={by === 'quantity' ? t('trade.volume', { base }) : t('tradeScreen.total')}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        error={error}
        hint={hint}
        onChange={(e) => onAmount(cleanAmount(e.target.value))}
        addon={<span className="unit">{by === 'quantity' ? base : 'USDT'}</span>}
      />
    </>
  );
}
