/** The pairs as rows: pair and volume, latest price, 24h change; each row opens the pair's K-line. */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../engine/index';
import { formatFigure, formatTime } from '../lib/format';
import { PATHS, pathWith, type AppHref } from '../lib/paths';
import { Amount } from './Amount';
import { Change } from './Change';
import { compactVolume } from '../lib/decimal';

export function klineHref(symbol: string): AppHref {
  return pathWith(PATHS.financeKline, { symbol });
}

export function QuoteList({
  quotes,
  label,
  compact = false,
  stale = false,
  favourites,
}: {
  quotes: Quote[];
  label: string;
  compact?: boolean;
  /** The prices are the last ones received (offline): shown dimmed; the page's feed note says from when. */
  stale?: boolean;
  /** The Quotes tab: a star before each pair, pressed for a favourite (44 px, its own button). */
  favourites?: { has(symbol: string): boolean; toggle(symbol: string): void };
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <ul className={stale ? 'quote-list quote-list-stale' : 'quote-list'} aria-label={label}>
      {quotes.map((q, index) => {
        return (
          <li key={q.symbol} className={favourites ? 'quote-item-starred' : undefined}>
            {favourites && (
              <button
                type="button"
                className="star-button"
                aria-pressed={favourites.has(q.symbol)}
                aria-label={t('market.favouriteOf', { symbol: q.symbol })}
                onClick={() => favourites.toggle(q.symbol)}
              >
                <span aria-hidden="true">{favourites.has(q.symbol) ? '★' : '☆'}</span>
              </button>
            )}
            {/* No aria-label: the row's own figures (pair, volume, price, high, low, change) are its name. */}
            <Link className="quote-row" to={klineHref(q.symbol)}>
              <span className="quote-pair">
                <span>
                  <strong>{q.base}</strong>
                  <span className="muted">/USDT</span>
                </span>
                {!compact && (
                  <span className="quote-sub">
                    {t('market.vol')}{' '}
                    <bdi>
                      {compactVolume(q.volume, (v, decimals) => formatFigure(v, { decimals }, locale))}
                    </bdi>
                  </span>
                )}
              </span>
              <span className="quote-price">
                <strong>
                  {/* The first row's price is the screen's first data (Element Timing, issue 25). */}
                  <Amount
                    value={q.latest}
                    kind="price"
                    symbol={q.symbol}
                    timing={index === 0 ? 'quote-row' : undefined}
                  />
                </strong>
                {!compact && (
                  // Only the numbers are isolated: each label stays beside its own value in RTL.
                  <span className="quote-sub">
                    {t('market.high')} <Amount value={q.high} kind="price" symbol={q.symbol} /> ·{' '}
                    {t('market.low')} <Amount value={q.low} kind="price" symbol={q.symbol} />
                  </span>
                )}
                {q.stale && (
                  // Live mode: the pair's index is stale, so this is its last fresh price, of this time.
                  <span className="quote-sub stale-mark">
                    {t('market.staleAt', { time: formatTime(q.time * 1000, 'HH:mm') })}
                  </span>
                )}
              </span>
              <Change value={q.change24h} block />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
