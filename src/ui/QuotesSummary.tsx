/** The /home quotes card: the first four pairs, live, each opening its K-line. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from './QueryState';
import { QuoteList } from './QuoteList';
import { QuoteListSkeleton } from './QuoteListSkeleton';
import { noteFirstData } from '../lib/after-first-data';
import { useQuotes } from '../lib/use-quotes';
import { appDeviceDb } from '../sync/device';
import './market.css';

/**
 * Opens the device database ahead of the first render, so that a lazy loader can do it in a task of its own
 * instead of inside a render slice. (The sync engine is not needed for the quotes: it starts after them.)
 */
export function prepareQuotesSummary(): void {
  appDeviceDb();
}

export { warmQuotes } from '../lib/use-quotes';

/** The first `rows` pairs; its loading state is as many still rows (HomePage's Suspense fallback too). */
export function QuotesSummary({ rows }: { rows: number }) {
  const { t } = useTranslation();
  const { status, quotes, error, reload } = useQuotes();
  // The quotes (or why there are none) are on screen: start-up's background work may go ahead.
  useEffect(() => {
    if (status !== 'loading') noteFirstData();
  }, [status]);
  return (
    <>
      {status === 'ready' && quotes.length > 0 && (
        <QuoteList quotes={quotes.slice(0, rows)} label={t('home.quotesTitle')} compact />
      )}
      <QueryState
        status={status}
        error={error}
        onRetry={reload}
        isEmpty={quotes.length === 0}
        emptyText={t('market.empty')}
        loadingView={<QuoteListSkeleton rows={rows} compact />}
      />
    </>
  );
}
