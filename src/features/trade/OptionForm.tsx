/**
 * Option form: up or down over 60, 300 or 900 seconds with the payout shown next to each period, and the
 * stake in USDT from the options account (O1, O2: at least 1 USDT; a draw returns the stake).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { useFigure } from '../../ui/Amount';
import { Field } from '../../ui/Field';
import { checkAmount, cleanAmount } from '../../lib/amount';
import { Segmented } from '../../ui/Segmented';
import { UpDownActions } from './UpDownActions';
import { useOrderSubmit } from './use-order-submit';

/** Payout on a win as a percent of the stake, by period (engine config optionPayoutBps). */
export const PERIODS = [
  { seconds: 60, payout: '80' },
  { seconds: 300, payout: '85' },
  { seconds: 900, payout: '90' },
] as const;
const MIN_STAKE = '1';

export function OptionForm({
  symbol,
  available,
  onPlaced,
}: {
  symbol: string;
  available: string | undefined;
  onPlaced: () => void;
}) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<string>('60');
  const [stake, setStake] = useState('');
  const { submitted, busy, attempt } = useOrderSubmit(onPlaced);
  const figure = useFigure();
  const money = (v: string) => figure(v, { unit: 'USDT' });
  const reason = checkAmount(stake, MIN_STAKE, available);
  const error = submitted && reason ? t(`wallet.amountError.${reason}`, { min: MIN_STAKE }) : undefined;
  const chosen = PERIODS.find((p) => String(p.seconds) === period) ?? PERIODS[0];

  function place(side: 'up' | 'down', form: HTMLFormElement | null) {
    return attempt({
      form,
      invalid: reason ? 'stake' : null,
      send: async () => {
        await api.call('/api/order/place', {
          symbol,
          market: 'option',
          side,
          type: 'market',
          volume: stake,
          period: chosen.seconds,
        });
        return t('trade.optionPlaced');
      },
      clear: () => setStake(''),
    });
  }

  return (
    <form
      className="form trade-form"
      noValidate
      aria-label={t('trade.optionForm')}
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        void place('up', e.currentTarget);
      }}
    >
      {/* An option opens at the moment's price: it needs a connection. */}
      <NeedsConnection>
        <Segmented
          label={t('trade.period')}
          value={period}
          onChange={setPeriod}
          options={PERIODS.map((p) => ({
            value: String(p.seconds),
            label: t('trade.periodOption', { seconds: p.seconds, payout: p.payout }),
          }))}
        />
        <Field
          label={t('trade.stake')}
          name="stake"
          inputMode="decimal"
          autoComplete="off"
          value={stake}
          error={error}
          hint={t('trade.availableIs', { amount: money(available ?? '0') })}
          onChange={(e) => setStake(cleanAmount(e.target.value))}
          addon={<span className="unit">USDT</span>}
        />
        <p className="terms">{t('trade.optionTerms', { seconds: chosen.seconds, payout: chosen.payout })}</p>
        <UpDownActions
          busy={busy}
          up={<>▲ {t('trade.up')}</>}
          down={<>▼ {t('trade.down')}</>}
          onDown={(form) => void place('down', form)}
        />
      </NeedsConnection>
    </form>
  );
}
