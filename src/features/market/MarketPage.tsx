/**
 * /market, the Quotes tab: the USDT pairs with latest price, 24h change, high, low and volume, live from the
 * feed; a search over the pairs, the member's favourites (a star on each row, kept on the device and synced to
 * their other devices), the rising and falling lists (biggest move first), and sorting by 24h volume (in
 * USDT), last price or 24h change, either way. Search, view and sort live in the address (?q=&view=&sort=),
 * so going back returns to the same list.
 */
import { useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { CachedNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';
import { Segmented } from '../../ui/Segmented';
import { Icon } from '../../ui/icons';
import { QuoteList } from '../../ui/QuoteList';
import { QuoteListSkeleton } from '../../ui/QuoteListSkeleton';
import { SimulatedNote } from '../../ui/SimulatedNote';
import { useQuotes, warmQuotes } from '../../lib/use-quotes';
import { useOnlineStatus } from '../../pwa/online';
import { useFavourites } from '../../lib/favourites';
import {
  nextSort,
  parseSort,
  searchQuotes,
  selectQuotes,
  sortParam,
  sortQuotes,
  SORT_KEYS,
  VIEWS,
  type QuoteView,
} from '../../lib/market-view';
import '../../ui/market.css';

export { selectQuotes } from '../../lib/market-view';
export type { QuoteView } from '../../lib/market-view';

/** The pairs listed (the engine's eight): the loading state's rows, so nothing moves when they arrive. */
const PAIRS = 8;

const isView = (v: string | null): v is QuoteView => VIEWS.some((x) => x === v);

/**
 * Start-up reads the quotes' device copy before the first render (src/app/routes.tsx): a returning member's
 * first frame has the rows, so the rows the shell put back from the last visit (src/lib/snapshot.ts) stay.
 */
export const warmMarket = warmQuotes;

export function MarketPage() {
  const { t } = useTranslation();
  const { status, quotes, error, reload, at, stale } = useQuotes();
  const online = useOnlineStatus();
  const favourites = useFavourites();
  const [params, setParams] = useSearchParams();
  const searchId = useId();
  const rawView = params.get('view');
  const view: QuoteView = isView(rawView) ? rawView : 'all';
  const query = params.get('q') ?? '';
  const sort = parseSort(params.get('sort'));
  const update = (next: { view?: QuoteView; q?: string; sort?: string | null }) => {
    const merged = { view, q: query, sort: sortParam(sort), ...next };
    const out: Record<string, string> = {};
    if (merged.view !== 'all') out.view = merged.view;
    if (merged.q) out.q = merged.q;
    if (merged.sort) out.sort = merged.sort;
    setParams(out, { replace: true });
  };
  const shown = sortQuotes(searchQuotes(selectQuotes(quotes, view, favourites.symbols), query), sort);
  const emptyText = query.trim()
    ? t('market.noMatch', { query: query.trim() })
    : t(view === 'all' ? 'market.empty' : `market.empty_${view}`);
  return (
    <div className="page market">
      <CachedNote at={at} stale={stale} />
      <SimulatedNote />
      <section className="card" aria-labelledby="quotes-heading">
        <h2 id="quotes-heading" className="section-title">
          {t('market.title')}
        </h2>
        <div className="market-tools">
          <div className="market-search">
            <Icon name="search" className="search-icon" />
            <label htmlFor={searchId} className="visually-hidden">
              {t('market.search')}
            </label>
            <input
              id={searchId}
              type="search"
              value={query}
              placeholder={t('market.searchPlaceholder')}
              autoComplete="off"
              spellCheck={false}
              enterKeyHint="search"
              onChange={(e) => update({ q: e.target.value })}
            />
          </div>
          <Segmented
            label={t('market.views')}
            value={view}
            onChange={(v) => update({ view: v })}
            options={VIEWS.map((v) => ({ value: v, label: t(`market.view.${v}`) }))}
          />
          <div className="sort-bar" role="group" aria-label={t('market.sortBy')}>
            <span className="muted" aria-hidden="true">
              {t('market.sortBy')}
            </span>
            {SORT_KEYS.map((key) => {
              const active = sort?.key === key ? sort.direction : null;
              return (
                <button
                  key={key}
                  type="button"
                  className="segment"
                  aria-pressed={active !== null}
                  aria-label={t(`market.sortLabel.${active ?? 'off'}`, { key: t(`market.sort.${key}`) })}
                  onClick={() => update({ sort: sortParam(nextSort(sort, key)) })}
                >
                  {t(`market.sort.${key}`)}
                  <span className="sort-arrow" aria-hidden="true">
                    {active === 'desc' ? '▼' : active === 'asc' ? '▲' : '⇅'}
                  </span>
                </button>
              );
            })}
          </div>
        </div>
        <div className="quote-head muted" aria-hidden="true">
          <span>{t('market.pairVolume')}</span>
          <span>{t('market.latestHighLow')}</span>
          <span>{t('market.change')}</span>
        </div>
        {/* The region the next visit's shell fills with these rows before any JavaScript (snapshot.ts). */}
        <div className="snapshot-region" data-snapshot="quotes">
          {status === 'ready' && shown.length > 0 && (
            <QuoteList
              quotes={shown}
              label={t(`market.view.${view}`)}
              stale={!online}
              favourites={favourites}
            />
          )}
          <QueryState
            status={status}
            error={error}
            onRetry={reload}
            isEmpty={shown.length === 0}
            emptyText={emptyText}
            loadingView={<QuoteListSkeleton rows={PAIRS} />}
          />
        </div>
      </section>
    </div>
  );
}
