/**
 * Spot order form: buy or sell (preselected by the trade screen's `?side=`), market or limit, price (limit
 * only) and the amount by quantity in the base coin or by total in USDT (the quantity it comes to at the
 * limit or last price, cut to the pair's step), quick 25/50/75/100% of the free balance (USDT with the fee
 * within it for a buy, the coin for a sell), checked against the cash account before sending; the other
 * figure is derived exactly by the money module.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { sendWrite } from '../../sync/app-writes';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { useFigure } from '../../ui/Amount';
import { Field } from '../../ui/Field';
import { cleanAmount } from '../../lib/amount';
import { pairScale } from '../../../engine/index';
import { useSiteLimits } from '../../api/site-config';
import {
  checkPositive,
  checkSpot,
  microToString,
  notional,
  quantityForTotal,
  spotQuantityForShare,
  totalForQuantity,
} from './order-rules';
import { AmountEntry, QuickAmounts, type AmountBy } from './QuickAmounts';
import { Segmented } from '../../ui/Segmented';
import { useOrderSubmit } from './use-order-submit';
import { OrderPreview } from './OrderPreview';

export interface SpotFormProps {
  symbol: string;
  base: string;
  latest: string;
  availableUsdt: string | undefined;
  availableBase: string | undefined;
  /** A price chosen in the order book. */
  pickedPrice: string | null;
  /** The side to start on (the K-line's Buy/Sell bar: `?side=`); buy when not given. */
  initialSide?: 'buy' | 'sell';
  onPlaced: () => void;
}

/** The spot fee when the site's limits are not known yet (engine config's default, 0.1%). */
const DEFAULT_SPOT_FEE_BPS = 10;

export function SpotForm({
  symbol,
  base,
  latest,
  availableUsdt,
  availableBase,
  pickedPrice,
  initialSide,
  onPlaced,
}: SpotFormProps) {
  const { t } = useTranslation();
  const [side, setSide] = useState<'buy' | 'sell'>(initialSide ?? 'buy');
  const [type, setType] = useState<'market' | 'limit'>('limit');
  const [price, setPrice] = useState('');
  const [by, setBy] = useState<AmountBy>('quantity');
  const [amount, setAmount] = useState('');
  const { submitted, busy, attempt } = useOrderSubmit(onPlaced);
  const figure = useFigure();
  const limits = useSiteLimits();
  const decimals = pairScale(symbol)?.quantityDecimals ?? 4;

  // A new `?side=` (the K-line's bar opening this screen again) picks that side; none leaves the member's.
  useEffect(() => {
    if (initialSide) setSide(initialSide);
  }, [initialSide]);

  useEffect(() => {
    if (pickedPrice) {
      setType('limit');
      setPrice(pickedPrice);
    }
  }, [pickedPrice]);

  // The price the amount is reckoned at: the limit's, or the last for a market order.
  const reference = type === 'limit' ? price : latest;
  // The quantity sent: typed, or what the total in USDT comes to at that price (cut to the pair's step).
  const volume = by === 'quantity' ? amount : (quantityForTotal(amount, reference, decimals) ?? '');
  const checked = checkSpot({ side, type, price, volume, latest, availableUsdt, availableBase });
  // By total: an empty total is "enter a total"; one that buys less than the pair's step is too small; with
  // no limit price yet only the price is wrong (the quantity cannot be known).
  const byTotalReason =
    by === 'quantity' || !checked.volume
      ? null
      : checkPositive(amount) === 'required'
        ? ('required' as const)
        : checked.volume === 'overAvailable'
          ? null
          : checked.price
            ? ('unknown' as const)
            : ('invalid' as const);
  const errors = checked;
  const errorText = (field: 'price' | 'volume') => {
    const reason = errors[field];
    if (!submitted || !reason) return undefined;
    if (field === 'volume' && byTotalReason)
      return byTotalReason === 'unknown' ? undefined : t(`orderEntry.totalError.${byTotalReason}`);
    return t(`trade.error.${field}.${reason}`, { base });
  };
  const value = notional(reference, volume);

  function fillShare(quarters: number) {
    const q = spotQuantityForShare({
      side,
      quarters,
      availableUsdt,
      availableBase,
      price: reference,
      feeBps: limits?.spotFeeBps ?? DEFAULT_SPOT_FEE_BPS,
      decimals,
    });
    if (q === null) return;
    setAmount(by === 'quantity' ? q : totalForQuantity(q, reference));
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    return attempt({
      form: e.currentTarget,
      invalid: errors.price ? 'price' : errors.volume ? 'amount' : null,
      send: async () => {
        // A limit order keeps its price: it goes through the outbox and may wait there offline. A market
        // order's price is the moment's: it needs a connection (the form is disabled offline).
        const order =
          type === 'limit'
            ? await sendWrite('/api/order/place', { symbol, market: 'spot', side, type, volume, price })
            : {
                queued: false as const,
                data: await api.call('/api/order/place', { symbol, market: 'spot', side, type, volume }),
              };
        if (order.queued) return null;
        const placed = order.data;
        // A market order walks the book only as far as the price protection band: say what was not traded.
        if (placed.status === 'partial')
          return t('trade.placedPartial', {
            filled: figure(placed.filled, { kind: 'quantity', symbol }),
            cancelled: figure(placed.cancelledVolume, { kind: 'quantity', symbol }),
            base,
          });
        if (placed.status === 'cancelled') return t('trade.placedNone');
        return t(placed.status === 'open' ? 'trade.placedOpen' : 'trade.placedFilled');
      },
      clear: () => setAmount(''),
    });
  }

  return (
    <form
      className="form trade-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={t('trade.spotForm')}
    >
      <Segmented
        label={t('trade.side')}
        value={side}
        onChange={setSide}
        options={[
          { value: 'buy', label: t('trade.buy', { base }), tone: 'up' },
          { value: 'sell', label: t('trade.sell', { base }), tone: 'down' },
        ]}
      />
      <Segmented
        label={t('trade.orderType')}
        value={type}
        onChange={setType}
        options={[
          { value: 'limit', label: t('trade.limit') },
          { value: 'market', label: t('trade.market') },
        ]}
      />
      {type === 'limit' ? (
        <Field
          label={t('trade.price')}
          name="price"
          inputMode="decimal"
          autoComplete="off"
          value={price}
          error={errorText('price')}
          onChange={(e) => setPrice(cleanAmount(e.target.value))}
          addon={<span className="unit">USDT</span>}
        />
      ) : (
        <p className="terms">{t('trade.marketNote')}</p>
      )}
      {/* A market order cannot wait offline (its price is the moment's); a limit order can. */}
      <NeedsConnection when={type === 'market'}>
        <AmountEntry
          base={base}
          by={by}
          onBy={setBy}
          amount={amount}
          onAmount={setAmount}
          error={errorText('volume')}
          hint={
            side === 'buy'
              ? t('trade.availableIs', { amount: figure(availableUsdt ?? '0', { unit: 'USDT' }) })
              : t('trade.availableIs', {
                  amount: figure(availableBase ?? '0', { kind: 'quantity', symbol, unit: base }),
                })
          }
        />
        <QuickAmounts
          labelFor={(percent) =>
            side === 'buy'
              ? t('orderEntry.quickBuy', { percent })
              : t('orderEntry.quickSell', { percent, base })
          }
          onPick={fillShare}
        />
        {by === 'total' && (
          <p className="terms" aria-live="polite">
            {t(type === 'limit' ? 'orderEntry.quantityAtLimit' : 'tradeScreen.totalBuys', {
              amount: volume ? figure(volume, { kind: 'quantity', symbol, unit: base }) : '--',
            })}
          </p>
        )}
        <p className="terms" aria-live="polite">
          {t(type === 'limit' ? 'trade.value' : 'trade.valueApprox', {
            amount:
              value === null ? '--' : figure(microToString(value), { unit: 'USDT', rounding: 'half-up' }),
          })}
        </p>
        {type === 'market' && <OrderPreview symbol={symbol} market="spot" side={side} volume={volume} />}
        <button
          type="submit"
          className={`button block ${side === 'buy' ? 'button-up' : 'button-down'}`}
          disabled={busy}
        >
          {side === 'buy' ? t('trade.buy', { base }) : t('trade.sell', { base })}
        </button>
      </NeedsConnection>
    </form>
  );
}
