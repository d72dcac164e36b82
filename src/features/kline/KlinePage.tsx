/**
 * /finance/kline?symbol=&interval=: the K-line of one pair (candlesticks and volume) at 1m to 1d, paging
 * back through history as the member scrolls left and moving live with the feed; the pair's 24h figures
 * above it and a spoken summary of the latest candle for screen readers.
 */
import { useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Interval } from '../../../engine/index';
import { resolveTheme, useThemeChoice } from '../../state/theme';
import { PATHS, pathWith } from '../../lib/paths';
import { Amount, useFigure } from '../../ui/Amount';
import { PairPicker } from '../../ui/PairPicker';
import { CachedNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';
import { Change } from '../../ui/Change';
import { SimulatedNote } from '../../ui/SimulatedNote';
import { useQuotes } from '../../lib/use-quotes';
import { Segmented } from '../../ui/Segmented';
import { useKlineChart } from './use-kline-chart';
import '../../ui/market.css';
import './kline.css';
import { DepthChart } from '../../ui/DepthChart';

export const DEFAULT_INTERVAL: Interval = '15m';
/** API.md's intervals (the engine's own list stays on its side of the boundary). */
export const INTERVALS: readonly Interval[] = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'];
const isInterval = (v: string | null): v is Interval => INTERVALS.some((i) => i === v);

export function KlinePage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const symbol = params.get('symbol') ?? 'BTC/USDT';
  const rawInterval = params.get('interval');
  const interval: Interval = isInterval(rawInterval) ? rawInterval : DEFAULT_INTERVAL;
  const dark = resolveTheme(useThemeChoice()) === 'dark';
  const container = useRef<HTMLDivElement>(null);
  const chart = useKlineChart(container, symbol, interval, dark, i18n.language);
  const { quotes } = useQuotes();
  const quote = quotes.find((q) => q.symbol === symbol);
  const base = quote?.base ?? symbol.split('/')[0] ?? symbol;
  const figure = useFigure();
  const num = (v: string) => figure(v, { kind: 'price', symbol });
  const price = (v: string) => <Amount value={v} kind="price" symbol={symbol} />;
  const go = (next: { symbol?: string; interval?: Interval }) =>
    setParams({ symbol: next.symbol ?? symbol, interval: next.interval ?? interval }, { replace: true });

  return (
    <div className="page kline">
      <CachedNote at={chart.at} stale={chart.stale} />
      <SimulatedNote />
      <section className="card trade-head" aria-label={t('kline.summary', { symbol })}>
        <PairPicker symbol={symbol} quotes={quotes} onPick={(s) => go({ symbol: s })} />
        <div className="trade-price">
          <strong>
            <Amount value={quote?.latest} kind="price" symbol={symbol} />
          </strong>
          {quote && <Change value={quote.change24h} />}
        </div>
        {quote && (
          <dl className="stat-grid">
            <div>
              <dt>{t('kline.high')}</dt>
              <dd>{price(quote.high)}</dd>
            </div>
            <div>
              <dt>{t('kline.low')}</dt>
              <dd>{price(quote.low)}</dd>
            </div>
            <div>
              <dt>{t('kline.volume', { base: quote.base })}</dt>
              <dd>
                <Amount value={quote.volume} decimals={0} />
              </dd>
            </div>
            <div>
              <dt>{t('kline.open')}</dt>
              <dd>{price(quote.open)}</dd>
            </div>
            <div>
              <dt>{t('kline.prevClose')}</dt>
              <dd>{price(quote.prevClose)}</dd>
            </div>
          </dl>
        )}
      </section>

      <section className="card chart-card" aria-label={t('kline.chartOf', { symbol, interval })}>
        <Segmented
          label={t('kline.interval')}
          value={interval}
          onChange={(v) => go({ interval: v })}
          options={INTERVALS.map((i) => ({ value: i, label: i }))}
        />
        <div
          ref={container}
          className="chart-box"
          role="img"
          aria-label={t('kline.chartOf', { symbol, interval })}
          dir="ltr"
        />
        {chart.status !== 'ready' && (
          <QueryState status={chart.status} error={chart.error} onRetry={chart.reload} />
        )}
        {chart.last && (
          <p className="terms" aria-live="off">
            {t('kline.lastCandle', {
              open: num(chart.last.open),
              high: num(chart.last.high),
              low: num(chart.last.low),
              close: num(chart.last.close),
            })}
          </p>
        )}
        <p className="terms">{t(chart.complete ? 'kline.historyStart' : 'kline.scrollBack')}</p>
      </section>
      <DepthChart symbol={symbol} base={base} />
      {/* Always within reach: Buy and Sell stay at the bottom of the screen while the chart scrolls. */}
      <nav className="kline-trade-bar" aria-label={t('kline.tradeBar', { symbol })}>
        <Link className="button button-buy" to={pathWith(PATHS.contract, { symbol, side: 'buy' })}>
          {t('kline.buy', { base })}
        </Link>
        <Link className="button button-sell" to={pathWith(PATHS.contract, { symbol, side: 'sell' })}>
          {t('kline.sell', { base })}
        </Link>
      </nav>
    </div>
  );
}
