/**
 * What an order will do, shown before it is placed (issue 13): the estimated average fill price and its
 * slippage from the visible book, the fee, and for contracts the margin required and the liquidation price
 * at mark, for a long and a short. The numbers come from engine/trading/preview.ts on the latest depth
 * (100 levels); the engine itself decides at placement, within the 5% price band.
 */
import { useTranslation } from 'react-i18next';
import { previewOrder, type OrderPreview as Preview } from '../../../engine/index';
import { api } from '../../api';
import { formatAmount } from '../../lib/format';
import { useCached } from '../../sync/cache';
import { microToString } from './order-rules';

export interface OrderPreviewProps {
  symbol: string;
  market: 'spot' | 'contract';
  /** Spot: the chosen side. Contracts: both sides are shown. */
  side?: 'buy' | 'sell';
  volume: string;
  leverage?: number;
  marginMode?: 'cross' | 'isolated';
  available?: string;
}

export function OrderPreview(props: OrderPreviewProps) {
  const { t, i18n } = useTranslation();
  const { symbol, market, volume } = props;
  const depth = useCached(`depth100:${symbol}`, () =>
    api.call('/api/market/depth', { symbol, limit: 100 }, { silent: true }),
  );
  const book = depth.data;
  if (!book || volume.trim() === '') return null;
  const sides: ('buy' | 'sell')[] = market === 'spot' ? [props.side ?? 'buy'] : ['buy', 'sell'];
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
    }),
  );
  if (previews.some((p) => p === null)) return null;
  const rows = previews as Preview[];
  const num = (v: bigint | null, decimals = 2) =>
    v === null ? t('trade.none') : formatAmount(microToString(v), { decimals, locale: i18n.language });
  const label = (side: 'buy' | 'sell') =>
    market === 'spot' ? '' : t(`trade.sides.${side === 'buy' ? 'long' : 'short'}`);
  const line = (key: string, value: (p: Preview) => string) => (
    <div key={key}>
      <dt>{t(`trade.preview.${key}`)}</dt>
      <dd dir="ltr">{rows.map((p, i) => `${label(sides[i]!)} ${value(p)}`.trim()).join(' · ')}</dd>
    </div>
  );
  return (
    <section className="order-preview" aria-label={t('trade.preview.title')}>
      <dl className="stat-grid">
        {line('fillPrice', (p) => num(p.avgPrice, 4))}
        {line('slippage', (p) => `${(p.slippageBps / 100).toFixed(2)}%`)}
        {line('fee', (p) => `${num(p.fee)} USDT`)}
        {market === 'contract' && line('margin', (p) => `${num(p.margin)} USDT`)}
        {market === 'contract' && line('liquidation', (p) => num(p.liquidationPrice, 4))}
      </dl>
      {rows.some((p) => p.unfilled > 0n) && <p className="terms">{t('trade.preview.beyondDepth')}</p>}
      {rows.some((p) => p.maxLeverage !== null && (props.leverage ?? 0) > p.maxLeverage) && (
        <p className="terms">{t('trade.preview.tierLimit', { leverage: rows[0]!.maxLeverage })}</p>
      )}
    </section>
  );
}
