/** The /home quotes card: the first four pairs, live, each opening its K-line. */
import { useTranslation } from 'react-i18next';
import { QueryState } from './QueryState';
import { QuoteList } from './QuoteList';
import { QuoteListSkeleton } from './QuoteListSkeleton';
import { useQuotes } from '../lib/use-quotes';
import { appSync } from '../sync/app';
import './market.css';

/**
 * Opens the device database (the sync engine's Dexie instance) ahead of the first render, so that a lazy
 * loader can do it in a task of its own instead of inside a render slice.
 */
export function prepareQuotesSummary(): void {
  appSync();
}

/** How many pairs the card shows (and its loading state's rows). */
export const SUMMARY_ROWS = 4;

export function QuotesSummary() {
  const { t } = useTranslation();
  const { status, quotes, error, reload } = useQuotes();
  if (status === 'loading') return <QuoteListSkeleton rows={SUMMARY_ROWS} compact />;
  return (
    <>
      {status === 'ready' && quotes.length > 0 && (
        <QuoteList quotes={quotes.slice(0, SUMMARY_ROWS)} label={t('home.quotesTitle')} compact />
      )}
      <QueryState
        status={status}
        error={error}
        onRetry={reload}
        isEmpty={quotes.length === 0}
        emptyText={t('market.empty')}
      />
    </>
  );
}
