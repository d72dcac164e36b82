/**
 * The order book's depth: cumulative bids and asks around the price, from the depth call (100 levels).
 * Shared by the K-line and trade screens. The picture has a text alternative: the image is named by the
 * title and the summary line under it (the totals on each side), which is also shown on screen.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { useFigure } from './Amount';
import { useCached } from '../sync/cache';
import { depthCurves } from './depth';
import './depth.css';

const WIDTH = 300;
const HEIGHT = 100;

export function DepthChart({
  symbol,
  base,
  className = 'card depth-card',
}: {
  symbol: string;
  base: string;
  /** The section's classes: a card of its own (K-line) or a part of another card (trade). */
  className?: string;
}) {
  const { t } = useTranslation();
  const figure = useFigure();
  const summaryId = useId();
  const depth = useCached(`depth100:${symbol}`, () =>
    api.call('/api/market/depth', { symbol, limit: 100 }, { silent: true }),
  );
  const curves = depth.data ? depthCurves(depth.data.bids, depth.data.asks, WIDTH, HEIGHT) : null;
  if (!curves) return null;
  // The curves' totals are plotted numbers; written at 2 places for the sentence, with the coin as their unit
  // and on one line with it (no-break spaces, one isolate right to left): in ar-SA "442.89" and "BTC" had
  // come apart across lines and read out of order.
  const num = (v: number) => figure(v.toFixed(2), { decimals: 2, unit: base }).replaceAll(' ', '\u00a0');
  const title = t('market.depthTitle');
  return (
    <section className={className} aria-label={title}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="depth-chart"
        role="img"
        aria-label={title}
        aria-describedby={summaryId}
      >
        <polygon points={curves.bids} className="depth-bids" />
        <polygon points={curves.asks} className="depth-asks" />
      </svg>
      <p className="terms" id={summaryId}>
        {t('market.depthSummary', { bids: num(curves.totalBids), asks: num(curves.totalAsks) })}
      </p>
    </section>
  );
}
