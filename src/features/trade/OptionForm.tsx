/**
 * The Up/Down form (the 60-second up/down bets, named for what they are rather than "options"): up or down
 * over 60, 300 or 900 seconds with the payout shown next to each period, the stake in USDT from the Up/Down
 * (options) account (O1, O2: at least 1 USDT; a draw returns the stake), and before the member bets, what the
 * stake typed pays on a win, what a loss costs (all of it) and what a draw returns, computed exactly as the
 * engine settles it (engine/trading/options.ts: profit = stake x payout, rounded down to the micro-USDT).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { Amount, useFigure } from '../../ui/Amount';
import { Field } from '../../ui/Field';
import { checkAmount, cleanAmount } from '../../lib/amount';
import { formatMicro, mulDiv, parseAmountText } from '../../../engine/index';
import { Segmented } from '../../ui/Segmented';
import { UpDownActions } from './UpDownActions';
import { useOrderSubmit } from './use-order-submit';
import './up-down.css';

/** Payout on a win as a percent of the stake, by period (engine config optionPayoutBps). */
export const PERIODS = [
  { seconds: 60, payout: '80' },
  { seconds: 300, payout: '85' },
  { seconds: 900, payout: '90' },
] as const;
const MIN_STAKE = '1';

/** What a stake pays: profit and total back on a win (exact, floored as the engine does), or null. */
export function betOutcome(stake: string, payoutPercent: string): { profit: string; total: string } | null {
  const micro = parseAmountText(stake);
  const percent = parseAmountText(payoutPercent);
  if (micro === null || micro === 0n || percent === null) return null;
  // percent is micro-scaled (80 -> 80_000_000): profit = stake x percent / 100, floored.
  const profit = mulDiv(micro, percent, 100_000_000n, 'floor');
  return { profit: formatMicro(profit), total: formatMicro(micro + profit) };
}

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
  const outcome = reason === null || reason === 'overAvailable' ? betOutcome(stake, chosen.payout) : null;

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
        {/* Payout and risk of this stake, before the bet: label/value rows, the figures never wrap. */}
        <dl className="bet-outcome" aria-label={t('upDown.outcomeTitle')} aria-live="polite">
          <div>
            <dt>{t('upDown.ifRight')}</dt>
            <dd className="up-text">
              {outcome ? (
                <>
                  <Amount value={outcome.profit} unit="USDT" prefix="+" />
                  <span className="muted bet-back">{t('upDown.back', { amount: money(outcome.total) })}</span>
                </>
              ) : (
                t('upDown.payoutOf', { payout: chosen.payout })
              )}
            </dd>
          </div>
          <div>
            <dt>{t('upDown.ifWrong')}</dt>
            <dd className="down-text">
              {outcome ? <Amount value={stake} unit="USDT" prefix="−" /> : t('upDown.wholeStake')}
            </dd>
          </div>
          <div>
            <dt>{t('upDown.ifDraw')}</dt>
            <dd>{t('upDown.stakeBack')}</dd>
          </div>
        </dl>
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
