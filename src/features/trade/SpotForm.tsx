/**
 * Spot order form: buy or sell, market or limit, price (limit only) and quantity in the base coin, checked
 * against the cash account before sending; the estimated value is computed exactly.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { sendWrite } from '../../sync/app-writes';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { useFigure } from '../../ui/Amount';
import { Field } from '../../ui/Field';
import { cleanAmount } from '../../lib/amount';
import { checkSpot, microToString, notional } from './order-rules';
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
  onPlaced: () => void;
}

export function SpotForm({
  symbol,
  base,
  latest,
  availableUsdt,
  availableBase,
  pickedPrice,
  onPlaced,
}: SpotFormProps) {
  const { t } = useTranslation();
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  const [type, setType] = useState<'market' | 'limit'>('limit');
  const [price, setPrice] = useState('');
  const [volume, setVolume] = useState('');
  const { submitted, busy, attempt } = useOrderSubmit(onPlaced);
  const figure = useFigure();

  useEffect(() => {
    if (pickedPrice) {
      setType('limit');
      setPrice(pickedPrice);
    }
  }, [pickedPrice]);

  const errors = checkSpot({ side, type, price, volume, latest, availableUsdt, availableBase });
  const errorText = (field: 'price' | 'volume') => {
    const reason = errors[field];
    return submitted && reason ? t(`trade.error.${field}.${reason}`, { base }) : undefined;
  };
  const value = notional(type === 'limit' ? price : latest, volume);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    return attempt({
      form: e.currentTarget,
      invalid: (['price', 'volume'] as const).find((f) => errors[f]),
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
      clear: () => setVolume(''),
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
        <Field
          label={t('trade.volume', { base })}
          name="volume"
          inputMode="decimal"
          autoComplete="off"
          value={volume}
          error={errorText('volume')}
          hint={
            side === 'buy'
              ? t('trade.availableIs', { amount: figure(availableUsdt ?? '0', { unit: 'USDT' }) })
              : t('trade.availableIs', {
                  amount: figure(availableBase ?? '0', { kind: 'quantity', symbol, unit: base }),
                })
          }
          onChange={(e) => setVolume(cleanAmount(e.target.value))}
          addon={<span className="unit">{base}</span>}
        />
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
