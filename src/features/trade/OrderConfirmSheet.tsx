/**
 * The confirmation of a leveraged contract order (issue 26 item 2), shown before it is sent: side and pair,
 * size, leverage and margin mode, the estimated entry, the liquidation price (the engine's tiered formula,
 * engine/trading/preview.ts, on the latest book), the margin and fee it takes, the funding rate and the next
 * funding time, and the take-profit and stop-loss when set. "Don't show this again" is remembered on this
 * device; the form's preview keeps showing the same risk before every order.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderPreview, Quote } from '../../../engine/index';
import { Amount } from '../../ui/Amount';
import { Dialog } from '../../ui/Dialog';
import { formatTime } from '../../lib/format';
import { microToString } from './order-rules';

export interface ConfirmOrder {
  symbol: string;
  side: 'long' | 'short';
  volume: string;
  leverage: number;
  marginMode: 'cross' | 'isolated';
  preview: OrderPreview | null;
  quote: Quote | undefined;
  takeProfit: string;
  stopLoss: string;
}

export function OrderConfirmSheet({
  order,
  busy,
  onConfirm,
  onClose,
}: {
  order: ConfirmOrder;
  busy: boolean;
  /** `skipNext`: the member ticked "don't show this again". */
  onConfirm: (skipNext: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [skip, setSkip] = useState(false);
  const { symbol, preview, quote } = order;
  const micro = (v: bigint | null | undefined) => (v === null || v === undefined ? null : microToString(v));
  const sideName = t(`trade.sides.${order.side}`);
  const rows: [string, React.ReactNode][] = [
    [
      t('tradeScreen.confirm.side'),
      <span key="side" className={order.side === 'long' ? 'up-text' : 'down-text'}>
        {sideName} · {symbol}
      </span>,
    ],
    [
      t('trade.size'),
      <Amount key="size" value={order.volume} kind="quantity" symbol={symbol} unit={symbol.split('/')[0]} />,
    ],
    [t('trade.leverage'), `${order.leverage}x · ${t(`trade.${order.marginMode}`)}`],
    [
      t('tradeScreen.confirm.entry'),
      <Amount key="e" value={micro(preview?.avgPrice)} kind="price" symbol={symbol} />,
    ],
    [
      t('trade.liquidation'),
      <Amount
        key="l"
        value={micro(preview?.liquidationPrice)}
        kind="price"
        symbol={symbol}
        empty={t('trade.none')}
      />,
    ],
    [t('trade.margin'), <Amount key="m" value={micro(preview?.margin)} unit="USDT" rounding="half-up" />],
    [t('trade.preview.fee'), <Amount key="f" value={micro(preview?.fee)} unit="USDT" rounding="half-up" />],
    [
      t('tradeScreen.fundingRate'),
      <Amount key="fr" value={quote?.fundingRate} kind="percent" unit="%" decimals={4} />,
    ],
    [
      t('tradeScreen.nextFunding'),
      // Date before time in every language (in ar-SA the pair had turned into "08:00 2026-11-29").
      quote?.nextFundingTime !== undefined ? (
        <time key="nf" dateTime={new Date(quote.nextFundingTime * 1000).toISOString()} dir="ltr">
          {formatTime(quote.nextFundingTime, 'YYYY-MM-DD HH:mm')}
        </time>
      ) : (
        '--'
      ),
    ],
  ];
  if (order.takeProfit)
    rows.push([
      t('tradeScreen.takeProfit'),
      <Amount key="tp" value={order.takeProfit} kind="price" symbol={symbol} />,
    ]);
  if (order.stopLoss)
    rows.push([
      t('tradeScreen.stopLoss'),
      <Amount key="sl" value={order.stopLoss} kind="price" symbol={symbol} />,
    ]);

  return (
    <Dialog
      title={t('tradeScreen.confirm.title', { side: sideName, symbol })}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className={`button ${order.side === 'long' ? 'button-up' : 'button-down'}`}
            disabled={busy}
            onClick={() => onConfirm(skip)}
          >
            {t(order.side === 'long' ? 'trade.openLong' : 'trade.openShort')}
          </button>
        </>
      }
    >
      <dl className="figure-rows confirm-rows">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="terms">{t('tradeScreen.confirm.risk', { leverage: order.leverage })}</p>
      <label className="check-row">
        <input type="checkbox" checked={skip} onChange={(e) => setSkip(e.target.checked)} />
        <span>{t('tradeScreen.confirm.dontShow')}</span>
      </label>
    </Dialog>
  );
}
