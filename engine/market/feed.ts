/**
 * The market part of the real-time feed as a pure function of an interval of engine time. The engine has
 * no timers: whoever drives it (the demo worker, the server) calls `feedMessagesBetween(t0, t1)` on its own
 * timer and forwards the result. Tickers and Curr come once a second, the subscribed candle once a second,
 * the subscribed book ten times a second. After a long pause only the latest messages are produced, so a
 * resumed app is not flooded with stale ones.
 */
import { BOOK_REFRESH_MS } from './depth';
import type { MarketSim } from './market';
import { candle } from './market';
import { findSymbol, formatPrice, formatVolume } from './symbols';
import type { CurrEntry, Interval, MarketFeedMessage, QuotaBook } from './types';

export const TICKER_PERIOD_MS = 1_000;
const MAX_TICKS_PER_CALL = 3;
const MAX_BOOKS_PER_CALL = 10;
const QUOTA_LEVELS = 10;

/** What one client watches: the pair and interval of its open chart and book. */
export interface MarketSubscription {
  symbol: string;
  interval: Interval;
}

export const DEFAULT_SUBSCRIPTION: MarketSubscription = { symbol: 'BTC/USDT', interval: '1m' };

export interface TimedMessage {
  /** Engine time (ms) the message describes. */
  at: number;
  message: MarketFeedMessage;
}

/** Multiples of `period` in (t0, t1], at most `max` of them (the latest). */
function boundaries(t0: number, t1: number, period: number, max: number): number[] {
  const last = Math.floor(t1 / period) * period;
  const first = Math.max(Math.floor(t0 / period) * period + period, last - (max - 1) * period);
  const out: number[] = [];
  for (let t = first; t <= last; t += period) out.push(t);
  return out;
}

export function feedMessagesBetween(
  sim: MarketSim,
  t0: number,
  t1: number,
  subscription: MarketSubscription = DEFAULT_SUBSCRIPTION,
): TimedMessage[] {
  const spec = findSymbol(subscription.symbol) ?? findSymbol(DEFAULT_SUBSCRIPTION.symbol)!;
  const out: TimedMessage[] = [];
  const books = boundaries(t0, t1, BOOK_REFRESH_MS, MAX_BOOKS_PER_CALL);
  const ticks = new Set(boundaries(t0, t1, TICKER_PERIOD_MS, MAX_TICKS_PER_CALL));
  const times = [...new Set([...books, ...ticks])].sort((a, b) => a - b);
  for (const at of times) {
    if (ticks.has(at)) {
      const quotes = sim.quotes(at);
      out.push({ at, message: { type: 'ticker24hr', data: quotes } });
      const curr: Record<string, CurrEntry> = {};
      for (const q of quotes)
        curr[q.symbol] = { symbol: q.symbol, latest: q.latest, change24h: q.change24h, time: q.time };
      out.push({ at, message: { type: 'Curr', data: curr } });
      const bars = sim.klineBars(spec, subscription.interval, at, 1);
      out.push({
        at,
        message: {
          type: 'Kline',
          data: {
            symbol: spec.symbol,
            interval: subscription.interval,
            list: bars.map(({ start, bar }) => candle(start, bar)),
          },
        },
      });
    }
    if (books.includes(at)) {
      const book = sim.book(spec, at, QUOTA_LEVELS);
      const data: QuotaBook = {
        symbol: spec.symbol,
        buy: book.bids.map((l) => ({ bid: formatPrice(l.price), amount: formatVolume(l.qty) })),
        sell: book.asks.map((l) => ({ ask: formatPrice(l.price), amount: formatVolume(l.qty) })),
        time: Math.floor(at / 1000),
      };
      out.push({ at, message: { type: 'getQuota', data } });
    }
  }
  return out;
}
