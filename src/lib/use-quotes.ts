/**
 * The eight pairs' quotes: the device's last copy (with its time) at once, /api/market/list in the
 * background, then every `ticker24hr` of the feed replaces them and every `Curr` refreshes latest price and
 * change in between; the live list is written back to the device every few seconds. Callers see one
 * ordered list.
 */
import { useCallback, useEffect, useState } from 'react';
import type { CurrEntry, FeedMessage, Quote } from '../../engine/index';
import { api } from '../api';
import type { Failure } from '../machines/failure';
import { useCached, useCacheWriter, warmCached } from '../sync/cache';
import { useFeed } from './feed';
import { notePriceTime } from './price-time';

export interface QuotesState {
  status: 'loading' | 'error' | 'ready';
  quotes: Quote[];
  error: Failure | null;
  reload: () => void;
  /** When the quotes shown were fetched (ms): null while live ticks arrive or nothing is kept. */
  at: number | null;
  /** The quotes are the device's copy (offline, or the read failed and no tick came). */
  stale: boolean;
}

function isQuoteList(data: unknown): data is Quote[] {
  return Array.isArray(data) && data.every((q) => typeof (q as Quote | null)?.symbol === 'string');
}

/** Applies one feed message to the current list (pure, so it is testable without a feed). */
export function applyFeed(quotes: Quote[], message: FeedMessage): Quote[] {
  if (message.type === 'ticker24hr' && isQuoteList(message.data)) return message.data;
  if (message.type === 'Curr' && typeof message.data === 'object' && message.data !== null) {
    const curr: Partial<Record<string, CurrEntry>> = message.data;
    let changed = false;
    const next = quotes.map((q) => {
      const c = curr[q.symbol];
      const markPrice = c?.markPrice ?? q.markPrice;
      if (
        !c ||
        (c.latest === q.latest &&
          c.change24h === q.change24h &&
          markPrice === q.markPrice &&
          c.stale === q.stale)
      )
        return q;
      changed = true;
      const { stale: _was, ...rest } = q;
      return {
        ...rest,
        latest: c.latest,
        change24h: c.change24h,
        time: c.time,
        markPrice,
        source: c.source ?? q.source,
        ...(c.stale ? { stale: c.stale } : {}),
      };
    });
    return changed ? next : quotes;
  }
  return quotes;
}

/** The quotes' key in the device cache (the answer of /api/market/list). */
export const QUOTES_KEY = 'quotes';

/** Reads the quotes' device copy before a screen's first render (its `warm`, src/app/routes.tsx). */
export function warmQuotes(): Promise<void> {
  return warmCached(QUOTES_KEY);
}

export function useQuotes(): QuotesState {
  const query = useCached(QUOTES_KEY, () => api.call('/api/market/list', undefined, { silent: true }));
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
  useCacheWriter(QUOTES_KEY, live ? { list: live } : null);
  // The time the prices on screen arrived: each live update now, else when the device's copy was fetched.
  useEffect(() => {
    if (live) notePriceTime(Date.now());
    else if (query.at !== null) notePriceTime(query.at);
  }, [live, query.at]);
  // Live ticks make the screen ready even when the first read failed (the feed outlives a slow call).
  const status = live ? 'ready' : query.status;
  return {
    status,
    quotes: base,
    error: live ? null : query.error,
    reload: query.reload,
    at: live ? null : query.at,
    stale: live ? false : query.stale,
  };
}
