/**
 * /market, the Quotes tab: the eight USDT pairs with latest price, 24h change, high, low and volume, live
 * from the feed, and the rising and falling lists (pairs up or down over 24h, biggest move first).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../../engine/index';
import { CachedNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';
import { Segmented } from '../../ui/Segmented';
import { compareDecimal, signOf } from '../../lib/decimal';
import { QuoteList } from '../../ui/QuoteList';
import { QuoteListSkeleton } from '../../ui/QuoteListSkeleton';
import { SimulatedNote } from '../../ui/SimulatedNote';
import { useQuotes } from '../../lib/use-quotes';
import { useOnlineStatus } from '../../pwa/online';
import '../../ui/market.css';

export type QuoteView = 'all' | 'rising' | 'falling';
const VIEWS: QuoteView[] = ['all', 'rising', 'falling'];
/** The pairs listed (the engine's eight): the loading state's rows, so nothing moves when they arrive. */
const PAIRS = 8;

export function selectQuotes(quotes: Quote[], view: QuoteView): Quote[] {
  if (view === 'rising')
    return quotes
      .filter((q) => signOf(q.change24h) > 0)
      .sort((a, b) => compareDecimal(b.change24h, a.change24h));
  if (view === 'falling')
    return quotes
      .filter((q) => signOf(q.change24h) < 0)
      .sort((a, b) => compareDecimal(a.change24h, b.change24h));
  return quotes;
}

export function MarketPage() {
  const { t } = useTranslation();
  const { status, quotes, error, reload, at, stale } = useQuotes();
  const online = useOnlineStatus();
  const [view, setView] = useState<QuoteView>('all');
  const shown = selectQuotes(quotes, view);
  return (
    <div className="page market">
      <CachedNote at={at} stale={stale} />
      <SimulatedNote />
      <section className="card" aria-labelledby="quotes-heading">
        <h2 id="quotes-heading" className="section-title">
          {t('market.title')}
        </h2>
        <Segmented
          label={t('market.views')}
          value={view}
          onChange={setView}
          options={VIEWS.map((v) => ({ value: v, label: t(`market.view.${v}`) }))}
        />
        <div className="quote-head muted" aria-hidden="true">
          <span>{t('market.pairVolume')}</span>
          <span>{t('market.latestHighLow')}</span>
          <span>{t('market.change')}</span>
        </div>
        {status === 'ready' && shown.length > 0 && (
          <QuoteList quotes={shown} label={t(`market.view.${view}`)} stale={!online} />
        )}
        <QueryState
          status={status}
          error={error}
          onRetry={reload}
          isEmpty={shown.length === 0}
          emptyText={t(view === 'all' ? 'market.empty' : `market.empty_${view}`)}
          loadingView={<QuoteListSkeleton rows={PAIRS} />}
        />
      </section>
    </div>
  );
}
