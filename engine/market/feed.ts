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
import { findSymbol, formatPrice, formatVolume, SYMBOLS } from './symbols';
import { INTERVALS } from './types';
import type { CurrEntry, Interval, MarketFeedMessage, QuotaBook, Quote } from './types';

export const TICKER_PERIOD_MS = 1_000;
const MAX_TICKS_PER_CALL = 3;
const MAX_BOOKS_PER_CALL = 10;
const QUOTA_LEVELS = 10;

/** The Curr message's data: each quote's latest figures, by symbol. */
export function currOf(quotes: readonly Quote[]): Record<string, CurrEntry> {
  const curr: Record<string, CurrEntry> = {};
  for (const q of quotes) {
    curr[q.symbol] = {
      symbol: q.symbol,
      latest: q.latest,
      change24h: q.change24h,
      time: q.time,
      markPrice: q.markPrice,
      source: q.source,
      ...(q.stale ? { stale: q.stale } : {}),
    };
  }
  return curr;
}

/** What one client watches: the pair and interval of its open chart and book. */
export interface MarketSubscription {
  symbol: string;
  interval: Interval;
}

export const DEFAULT_SUBSCRIPTION: MarketSubscription = { symbol: 'BTC/USDT', interval: '1m' };

/** Every pair at every interval: what the engine broadcasts, since API.md has no subscribe message. */
export const ALL_SUBSCRIPTIONS: readonly MarketSubscription[] = SYMBOLS.flatMap((s) =>
  INTERVALS.map((interval) => ({ symbol: s.symbol, interval })),
);

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

/**
 * Feed messages for (t0, t1]. Kline goes out for each subscription; getQuota for each distinct pair among
 * them. With several subscriptions the messages of one instant stay together, in time order.
 */
export function feedMessagesBetween(
  sim: MarketSim,
  t0: number,
  t1: number,
  subscriptions: readonly MarketSubscription[] = [DEFAULT_SUBSCRIPTION],
): TimedMessage[] {
  const subs = subscriptions.flatMap((sub) => {
    const spec = findSymbol(sub.symbol);
    return spec ? [{ spec, interval: sub.interval }] : [];
  });
  const bookSpecs = [...new Set(subs.map((s) => s.spec))];
  const out: TimedMessage[] = [];
  const books = boundaries(t0, t1, BOOK_REFRESH_MS, MAX_BOOKS_PER_CALL);
  const ticks = new Set(boundaries(t0, t1, TICKER_PERIOD_MS, MAX_TICKS_PER_CALL));
  const times = [...new Set([...books, ...ticks])].sort((a, b) => a - b);
  for (const at of times) {
    if (ticks.has(at)) {
      const quotes = sim.quotes(at);
      out.push({ at, message: { type: 'ticker24hr', data: quotes } });
      out.push({ at, message: { type: 'Curr', data: currOf(quotes) } });
      for (const { spec, interval } of subs) {
        const list = sim.klineBars(spec, interval, at, 1).map(({ start, bar }) => candle(start, bar));
        out.push({ at, message: { type: 'Kline', data: { symbol: spec.symbol, interval, list } } });
      }
    }
    if (books.includes(at)) {
      for (const spec of bookSpecs) {
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
  }
  return out;
}
