/**
 * The eight pairs' quotes: /api/market/list once, then every `ticker24hr` of the feed replaces them and
 * every `Curr` refreshes latest price and change in between. Callers see one ordered list.
 */
import { useCallback, useState } from 'react';
import type { CurrEntry, FeedMessage, Quote } from '../../../engine/index';
import { api } from '../../api';
import { useQuery } from '../../ui/useQuery';
import { useFeed } from './feed';

export interface QuotesState {
  status: 'loading' | 'error' | 'ready';
  quotes: Quote[];
  error: ReturnType<typeof useQuery>['error'];
  reload: () => void;
}

function isQuoteList(data: unknown): data is Quote[] {
  return Array.isArray(data) && data.every((q) => typeof (q as Quote | null)?.symbol === 'string');
}

/** Applies one feed message to the current list (pure, so it is testable without a feed). */
export function applyFeed(quotes: Quote[], message: FeedMessage): Quote[] {
  if (message.type === 'ticker24hr' && isQuoteList(message.data)) return message.data;
  if (message.type === 'Curr' && typeof message.data === 'object' && message.data !== null) {
    const curr = message.data as Record<string, CurrEntry | undefined>;
    let changed = false;
    const next = quotes.map((q) => {
      const c = curr[q.symbol];
      if (!c || (c.latest === q.latest && c.change24h === q.change24h)) return q;
      changed = true;
      return { ...q, latest: c.latest, change24h: c.change24h, time: c.time };
    });
    return changed ? next : quotes;
  }
  return quotes;
}

export function useQuotes(): QuotesState {
  const query = useQuery(() => api.call('/api/market/list', undefined, { silent: true }));
  const [live, setLive] = useState<Quote[] | null>(null);
  const base = live ?? query.data?.list ?? [];
  useFeed(
    useCallback(
      (message: FeedMessage) => {
        setLive((current) => {
          const from = current ?? query.data?.list ?? [];
          const next = applyFeed(from, message);
          return next === from ? current : next;
        });
      },
      [query.data],
    ),
  );
  // Live ticks make the screen ready even when the first read failed (the feed outlives a slow call).
  const status = live ? 'ready' : query.status;
  return { status, quotes: base, error: live ? null : query.error, reload: query.reload };
}
