/** The order book's depth: cumulative bids and asks around the price, from the depth call (100 levels). */
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { formatAmount } from '../../lib/format';
import { useCached } from '../../sync/cache';
import { depthCurves } from './depth';

const WIDTH = 300;
const HEIGHT = 100;

export function DepthChart({ symbol, base }: { symbol: string; base: string }) {
  const { t, i18n } = useTranslation();
  const depth = useCached(`depth100:${symbol}`, () =>
    api.call('/api/market/depth', { symbol, limit: 100 }, { silent: true }),
  );
  const curves = depth.data ? depthCurves(depth.data.bids, depth.data.asks, WIDTH, HEIGHT) : null;
  if (!curves) return null;
  const num = (v: number) => formatAmount(String(v), { decimals: 2, locale: i18n.language });
  return (
    <section className="card depth-card" aria-label={t('kline.depthTitle')}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="depth-chart"
        role="img"
        aria-label={t('kline.depthTitle')}
      >
        <polygon points={curves.bids} className="depth-bids" />
        <polygon points={curves.asks} className="depth-asks" />
      </svg>
      <p className="terms">
        {t('kline.depthSummary', { bids: num(curves.totalBids), asks: num(curves.totalAsks), base })}
      </p>
    </section>
  );
}
