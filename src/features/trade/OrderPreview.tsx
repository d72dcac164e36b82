/**
 * What an order will do, shown before it is placed (issue 13): the estimated average fill price and its
 * slippage from the visible book, the fee, and for contracts the margin required and the liquidation price
 * at mark, for a long and a short. The numbers come from engine/trading/preview.ts on the latest depth
 * (100 levels); the engine itself decides at placement, within the 5% price band. A cross order's
 * liquidation price is the account's after the order (`account`: the replica's positions, free balance and
 * marks, valued by the positions list's own function).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { previewOrder, type OrderPreview as Preview, type PreviewAccount } from '../../../engine/index';
import { api } from '../../api';
import { Amount } from '../../ui/Amount';
import { useCached } from '../../sync/cache';
import { microToString } from './order-rules';

/** Basis points as a percent decimal string (12 -> "0.12"), by integer arithmetic. */
function bpsToPercent(bps: number): string {
  const sign = bps < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(bps));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export interface OrderPreviewProps {
  symbol: string;
  market: 'spot' | 'contract';
  /** Spot: the chosen side. Contracts: the chosen side (buy opens a long), or both when absent. */
  side?: 'buy' | 'sell';
  volume: string;
  leverage?: number;
  marginMode?: 'cross' | 'isolated';
  available?: string;
  /** The member's contract account (cross orders), as the positions list values it. */
  account?: PreviewAccount;
}

/** The preview of each side shown (engine/trading/preview.ts on the latest 100 levels), or null. */
export function useOrderPreview(
  props: OrderPreviewProps,
): { sides: ('buy' | 'sell')[]; rows: Preview[] } | null {
  const { symbol, market, volume } = props;
  const depth = useCached(`depth100:${symbol}`, () =>
    api.call('/api/market/depth', { symbol, limit: 100 }, { silent: true }),
  );
  const book = depth.data;
  if (!book || volume.trim() === '') return null;
  const sides: ('buy' | 'sell')[] =
    market === 'spot' ? [props.side ?? 'buy'] : props.side ? [props.side] : ['buy', 'sell'];
  const previews = sides.map((side) =>
    previewOrder({
      symbol,
      market,
      side,
      volume,
      asks: book.asks,
      bids: book.bids,
      leverage: props.leverage,
      marginMode: props.marginMode,
      available: props.available,
      account: props.account,
    }),
  );
  if (previews.some((p) => p === null)) return null;
  return { sides, rows: previews as Preview[] };
}

export function OrderPreview(props: OrderPreviewProps) {
  const { t } = useTranslation();
  const { symbol, market } = props;
  const preview = useOrderPreview(props);
  if (!preview) return null;
  const { sides } = preview;
  const rows = preview.rows;
  // A side's name only when both are shown (one chosen side is named by the form's toggle).
  const side = (i: number) =>
    market === 'spot' || sides.length < 2 ? null : t(`trade.sides.${sides[i] === 'buy' ? 'long' : 'short'}`);
  // Stacked label/value rows: each side's figure on its own line, whole (never three squeezed columns).
  const line = (key: string, value: (p: Preview) => ReactNode) => (
    <div key={key}>
      <dt>{t(`trade.preview.${key}`)}</dt>
      <dd>
        {rows.map((p, i) => (
          <span key={sides[i]} className="figure-line">
            {side(i) && <span className="figure-side">{side(i)}</span>}
            {value(p)}
          </span>
        ))}
      </dd>
    </div>
  );
  const micro = (v: bigint | null) => (v === null ? null : microToString(v));
  return (
    <section className="order-preview" aria-label={t('trade.preview.title')}>
      <dl className="figure-rows">
        {line('fillPrice', (p) => (
          <Amount value={micro(p.avgPrice)} kind="price" symbol={symbol} />
        ))}
        {line('slippage', (p) => (
          <Amount value={bpsToPercent(p.slippageBps)} kind="percent" unit="%" />
        ))}
        {line('fee', (p) => (
          <Amount value={micro(p.fee)} unit="USDT" rounding="half-up" />
        ))}
        {market === 'contract' &&
          line('margin', (p) => <Amount value={micro(p.margin)} unit="USDT" rounding="half-up" />)}
        {market === 'contract' &&
          line('liquidation', (p) => (
            <Amount value={micro(p.liquidationPrice)} kind="price" symbol={symbol} empty={t('trade.none')} />
          ))}
      </dl>
      {rows.some((p) => p.unfilled > 0n) && <p className="terms">{t('trade.preview.beyondDepth')}</p>}
      {rows.some((p) => p.maxLeverage !== null && (props.leverage ?? 0) > p.maxLeverage) && (
        <p className="terms">{t('trade.preview.tierLimit', { leverage: rows[0]!.maxLeverage })}</p>
      )}
    </section>
  );
}
