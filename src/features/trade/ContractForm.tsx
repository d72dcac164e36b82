/**
 * Contract order form, laid out for a phone as the exchanges do (issue 26 item 2): Long/Short as one
 * toggle, leverage and margin mode (they apply to all contracts and cannot change while a position is open,
 * K6), the amount by quantity or by total in USDT with quick 25/50/75/100% of what is free, an optional
 * take-profit and stop-loss (checked against the mark, K17), the preview of the chosen side as stacked rows
 * (fill price, slippage, fee, margin, liquidation price: the risk before the member commits), then one
 * button. A leveraged order opens the confirmation sheet first, unless the member chose "don't show again"
 * on this device. Contract orders are market orders: they need a connection.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PositionRecord, Quote } from '../../../engine/index';
import { api } from '../../api';
import { useSiteLimits } from '../../api/site-config';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { useFigure } from '../../ui/Amount';
import { SelectField } from '../../ui/Field';
import { pairScale, parseAmountText } from '../../../engine/index';
import { readString, removeKey, STORAGE_KEYS, writeString } from '../../lib/storage';
import { checkPositive, marginFor, microToString, quantityForShare, quantityForTotal } from './order-rules';
import { OrderPreview, useOrderPreview } from './OrderPreview';
import { OrderConfirmSheet, type ConfirmOrder } from './OrderConfirmSheet';
import { Segmented } from '../../ui/Segmented';
import { AmountEntry, QuickAmounts, type AmountBy } from './QuickAmounts';
import { useCached } from '../../sync/cache';
import { useReplicaTables } from '../../sync/live';
import { previewAccountFromReplica, type ReplicaBalance } from '../../sync/member-views';
import { sendWrite } from '../../sync/app-writes';
import { useOrderSubmit } from './use-order-submit';
import { NO_TRIGGERS, TriggerFields, triggerReasons, type Triggers } from './TriggerFields';

export const LEVERAGES = [1, 2, 3, 5, 10, 20, 50, 100];
/** The contract fee when the site's limits are not known yet (engine config's default, 0.05%). */
const DEFAULT_FEE_BPS = 5;
const ACCOUNT_TABLES = ['positions', 'balances'] as const;

export interface ContractFormProps {
  symbol: string;
  base: string;
  latest: string;
  /** The pair's quote: its mark price checks a take-profit or stop-loss, its funding shows in the sheet. */
  quote?: Quote;
  available: string | undefined;
  /** The quotes the trade screen shows: their mark prices value the account (as the positions list's). */
  quotes: readonly Quote[];
  /** The side to start on (the K-line's Buy/Sell bar: `?side=buy` is long, `sell` short); long if not given. */
  initialSide?: Side;
  onPlaced: () => void;
}

export type Side = 'long' | 'short';

export function ContractForm({
  symbol,
  base,
  latest,
  quote,
  available,
  quotes,
  initialSide,
  onPlaced,
}: ContractFormProps) {
  const { t } = useTranslation();
  // The member's saved settings, read from the device cache (refreshed from the server when online); what
  // the member picks shows at once and is saved through the outbox (a settings write, docs/OFFLINE.md).
  const saved = useCached(
    'positionSettings',
    () => api.call('/api/position/settings', {}, { silent: true }),
    {
      member: true,
    },
  );
  const [picked, setPicked] = useState<{ leverage?: number; marginMode?: 'cross' | 'isolated' }>({});
  const leverage = picked.leverage ?? saved.data?.leverage ?? 10;
  const marginMode = picked.marginMode ?? saved.data?.marginMode ?? 'cross';
  const [side, setSide] = useState<Side>(initialSide ?? 'long');
  // A new `?side=` (the K-line's bar opening this screen again) picks that side; none leaves the member's.
  useEffect(() => {
    if (initialSide) setSide(initialSide);
  }, [initialSide]);
  const [by, setBy] = useState<AmountBy>('quantity');
  const [amount, setAmount] = useState('');
  const [withTriggers, setWithTriggers] = useState(false);
  const [triggers, setTriggers] = useState<Triggers>(NO_TRIGGERS);
  const [confirming, setConfirming] = useState<ConfirmOrder | null>(null);
  const [skipConfirm, setSkipConfirm] = useState(() => readString(STORAGE_KEYS.skipOrderConfirm) === '1');
  const { submitted, busy, attempt } = useOrderSubmit(onPlaced);
  const figure = useFigure();
  const limits = useSiteLimits();
  const decimals = pairScale(symbol)?.quantityDecimals ?? 4;
  // A cross order's liquidation price is the account's after the order: the replica's positions, free
  // balance and marks, as the positions list values them.
  const replica = useReplicaTables(ACCOUNT_TABLES);
  const positions = replica.tables.positions as PositionRecord[] | undefined;
  const balances = replica.tables.balances as ReplicaBalance[] | undefined;
  const account = useMemo(
    () => (positions && balances ? previewAccountFromReplica(positions, balances, quotes) : undefined),
    [positions, balances, quotes],
  );

  function choose(change: { leverage?: number; marginMode?: 'cross' | 'isolated' }) {
    setPicked((p) => ({ ...p, ...change }));
    sendWrite('/api/position/settings', change).then(
      (outcome) => {
        if (!outcome.queued) saved.reload();
      },
      // Refused (K6: not while a position is open): the catalogue message was shown; the saved value returns.
      () =>
        setPicked((p) => ({ ...p, ...Object.fromEntries(Object.keys(change).map((k) => [k, undefined])) })),
    );
  }

  // The quantity sent: typed, or what the total in USDT buys at the last price (cut to the pair's step).
  const volume = by === 'quantity' ? amount : (quantityForTotal(amount, latest, decimals) ?? '');
  const margin = marginFor(latest, volume, leverage);
  const have = available === undefined ? null : parseAmountText(available);
  const amountReason =
    checkPositive(amount) ??
    checkPositive(volume) ??
    (margin !== null && have !== null && margin > have ? 'overAvailable' : null);
  const { takeProfit: tpReason, stopLoss: slReason } = withTriggers
    ? triggerReasons(side, triggers, quote?.markPrice)
    : { takeProfit: null, stopLoss: null };
  const amountError =
    submitted && amountReason ? t(`trade.error.volume.${amountReason}`, { base }) : undefined;
  const preview = useOrderPreview({
    symbol,
    market: 'contract',
    side: side === 'long' ? 'buy' : 'sell',
    volume,
    leverage,
    marginMode,
    available,
    account: marginMode === 'cross' ? account : undefined,
  });

  function fillShare(quarters: number) {
    const q = quantityForShare({
      available,
      quarters,
      leverage,
      price: latest,
      feeBps: limits?.contractFeeBps ?? DEFAULT_FEE_BPS,
      decimals,
    });
    if (q === null) return;
    if (by === 'quantity') setAmount(q);
    else {
      const value = marginFor(latest, q, 1);
      setAmount(value === null ? '' : microToString(value));
    }
  }

  function send(form: HTMLFormElement | null) {
    const { takeProfit, stopLoss } = triggers;
    const chosen = withTriggers
      ? {
          ...(takeProfit.trim() ? { takeProfit } : {}),
          ...(stopLoss.trim() ? { stopLoss } : {}),
        }
      : {};
    return attempt({
      form,
      invalid: amountReason ? 'amount' : tpReason ? 'takeProfit' : slReason ? 'stopLoss' : null,
      send: async () => {
        await api.call('/api/order/place', {
          symbol,
          market: 'contract',
          side: side === 'long' ? 'open_long' : 'open_short',
          type: 'market',
          volume,
          leverage,
          marginMode,
          ...chosen,
        });
        setConfirming(null);
        return t(side === 'long' ? 'trade.openedLong' : 'trade.openedShort');
      },
      clear: () => {
        setAmount('');
        setTriggers(NO_TRIGGERS);
      },
    });
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    // A leveraged order is confirmed on its sheet first (unless the member turned it off on this device).
    if (leverage > 1 && !skipConfirm && !amountReason && !tpReason && !slReason) {
      setConfirming({
        symbol,
        side,
        volume,
        leverage,
        marginMode,
        preview: preview?.rows[0] ?? null,
        quote,
        takeProfit: withTriggers ? triggers.takeProfit.trim() : '',
        stopLoss: withTriggers ? triggers.stopLoss.trim() : '',
      });
      return;
    }
    void send(form);
  }

  return (
    <form className="form trade-form" noValidate aria-label={t('trade.contractForm')} onSubmit={submit}>
      {/* Contract orders are market orders: they need a connection. */}
      <NeedsConnection>
        <Segmented
          label={t('trade.side')}
          value={side}
          onChange={setSide}
          options={[
            { value: 'long', label: t('trade.sides.long'), tone: 'up' },
            { value: 'short', label: t('trade.sides.short'), tone: 'down' },
          ]}
        />
        <div className="trade-settings">
          <SelectField
            label={t('trade.leverage')}
            value={String(leverage)}
            onChange={(v) => choose({ leverage: Number(v) })}
            options={LEVERAGES.map((l) => ({ value: String(l), label: `${l}x` }))}
          />
          <Segmented
            label={t('trade.marginMode')}
            value={marginMode}
            onChange={(mode) => choose({ marginMode: mode })}
            options={[
              { value: 'cross', label: t('trade.cross') },
              { value: 'isolated', label: t('trade.isolated') },
            ]}
          />
        </div>
        <p className="terms">{t('trade.settingsNote')}</p>
        <AmountEntry
          base={base}
          by={by}
          onBy={setBy}
          amount={amount}
          onAmount={setAmount}
          error={amountError}
          hint={t('trade.availableIs', { amount: figure(available ?? '0', { unit: 'USDT' }) })}
        />
        <QuickAmounts labelFor={(percent) => t('tradeScreen.quickShare', { percent })} onPick={fillShare} />
        {by === 'total' && (
          <p className="terms" aria-live="polite">
            {t('tradeScreen.totalBuys', {
              amount: volume ? figure(volume, { kind: 'quantity', symbol, unit: base }) : '--',
            })}
          </p>
        )}
        <p className="terms" aria-live="polite">
          {t('trade.marginEstimate', {
            // An estimate, and it says so ("about"): rounded to cents.
            amount:
              margin === null ? '--' : figure(microToString(margin), { unit: 'USDT', rounding: 'half-up' }),
            leverage,
          })}
        </p>
        <label className="check-row">
          <input type="checkbox" checked={withTriggers} onChange={(e) => setWithTriggers(e.target.checked)} />
          <span>{t('tradeScreen.withTriggers')}</span>
        </label>
        {withTriggers && (
          <TriggerFields
            symbol={symbol}
            side={side}
            mark={quote?.markPrice}
            value={triggers}
            onChange={setTriggers}
            showErrors={submitted}
          />
        )}
        <OrderPreview
          {...{ symbol, volume, leverage, marginMode, available }}
          account={marginMode === 'cross' ? account : undefined}
          side={side === 'long' ? 'buy' : 'sell'}
          market="contract"
        />
        <button
          type="submit"
          className={`button block ${side === 'long' ? 'button-up' : 'button-down'}`}
          disabled={busy}
        >
          {t(side === 'long' ? 'trade.openLong' : 'trade.openShort')}
        </button>
        {skipConfirm && leverage > 1 && (
          <button
            type="button"
            className="text-link"
            onClick={() => {
              removeKey(STORAGE_KEYS.skipOrderConfirm);
              setSkipConfirm(false);
            }}
          >
            {t('tradeScreen.confirm.showAgain')}
          </button>
        )}
      </NeedsConnection>
      {confirming && (
        <OrderConfirmSheet
          order={confirming}
          busy={busy}
          onClose={() => setConfirming(null)}
          onConfirm={(skipNext) => {
            if (skipNext) {
              writeString(STORAGE_KEYS.skipOrderConfirm, '1');
              setSkipConfirm(true);
            }
            void send(null);
          }}
        />
      )}
    </form>
  );
}
