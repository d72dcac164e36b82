/**
 * One symbol's price history as a function of time: candles of any aligned length, aggregated from
 * minutes. Coarse candles are built hierarchically (day <- 24 hours <- 60 minutes) and complete hours and
 * days are memoised, so the thousand-day history is generated once and then served from small caches.
 * Candles are only aggregated from minutes, so every interval agrees with every other by construction.
 */
import { ANCHOR_SECONDS, DEFAULT_MARKET_MODEL, HourlyPath } from './hourly';
import type { MarketFactor, MarketModel } from './hourly';
import { MINUTE_MS, MinuteModel } from './minutes';
import type { Bar } from './minutes';
import type { SymbolSpec } from './symbols';

export const ANCHOR_MINUTE = ANCHOR_SECONDS / 60;
/** About two months of hours per pair: enough for a 1,000-candle 1h or 4h chart without growing forever. */
const HOUR_CACHE_LIMIT = 6_000;

export function mergeBar(acc: Bar | null, bar: Bar): Bar {
  if (!acc) return { ...bar };
  acc.h = Math.max(acc.h, bar.h);
  acc.l = Math.min(acc.l, bar.l);
  acc.c = bar.c;
  acc.v += bar.v;
  return acc;
}

/** Minutes since the anchor and milliseconds into that minute, for an engine time. */
export function minuteOf(nowMs: number): { minute: number; offset: number } {
  const abs = Math.floor(nowMs / MINUTE_MS);
  const minute = abs - ANCHOR_MINUTE;
  if (minute < 0) return { minute: 0, offset: 0 };
  return { minute, offset: nowMs - abs * MINUTE_MS };
}

export class SymbolSeries {
  readonly minutes: MinuteModel;
  private readonly hours = new Map<number, Bar>();
  private readonly days = new Map<number, Bar>();

  constructor(
    seed: number,
    readonly spec: SymbolSpec,
    model: MarketModel = DEFAULT_MARKET_MODEL,
    market?: MarketFactor,
  ) {
    const path = new HourlyPath(seed, spec, model, market);
    this.minutes = new MinuteModel(seed, spec, path);
  }

  /** The traded price at an engine time, in micro-USDT. */
  priceAt(nowMs: number): number {
    const { minute, offset } = minuteOf(nowMs);
    return this.minutes.priceAt(minute, offset);
  }

  /**
   * The candle of minutes [m0, m1) as known at `nowMs`: minutes after now are left out and the minute in
   * progress counts only up to now. Null when the range has not started yet.
   */
  aggregate(m0: number, m1: number, nowMs: number): Bar | null {
    const { minute: current, offset } = minuteOf(nowMs);
    const end = Math.min(m1, current + 1);
    let m = Math.max(0, m0);
    let acc: Bar | null = null;
    while (m < end) {
      if (m % 1440 === 0 && m + 1440 <= end && m + 1440 <= current) {
        acc = mergeBar(acc, this.day(m / 1440));
        m += 1440;
      } else if (m % 60 === 0 && m + 60 <= end && m + 60 <= current) {
        acc = mergeBar(acc, this.hour(m / 60));
        m += 60;
      } else {
        acc = mergeBar(acc, m === current ? this.minutes.partialMinute(m, offset) : this.minutes.minute(m));
        m += 1;
      }
    }
    return acc;
  }

  /** A complete hour (only ever asked for hours that have ended). */
  hour(h: number): Bar {
    const cached = this.hours.get(h);
    if (cached) return cached;
    const bar = this.hourFromMinutes(h);
    if (this.hours.size >= HOUR_CACHE_LIMIT) this.hours.clear();
    this.hours.set(h, bar);
    return bar;
  }

  /**
   * A complete UTC day (only ever asked for days that have ended). Its hours are aggregated without being
   * cached: a 1,000-day chart would otherwise keep 24,000 hour candles per pair alive.
   */
  day(d: number): Bar {
    const cached = this.days.get(d);
    if (cached) return cached;
    let bar: Bar | null = null;
    for (let h = d * 24; h < d * 24 + 24; h++)
      bar = mergeBar(bar, this.hours.get(h) ?? this.hourFromMinutes(h));
    const result = bar as Bar;
    this.days.set(d, result);
    return result;
  }

  private hourFromMinutes(h: number): Bar {
    const block = this.minutes.peekBlock(h);
    const bar: Bar = { o: block[0]!, h: block[1]!, l: block[2]!, c: block[3]!, v: block[4]! };
    for (let i = 5; i < 300; i += 5) {
      bar.h = Math.max(bar.h, block[i + 1]!);
      bar.l = Math.min(bar.l, block[i + 2]!);
      bar.c = block[i + 3]!;
      bar.v += block[i + 4]!;
    }
    return bar;
  }
}
