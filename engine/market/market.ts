/**
 * The market simulator: every pair's price, candles, 24h statistics and order book as pure functions of
 * (seed, symbol, time). Nothing here reads a clock; callers pass the engine time in milliseconds.
 */
import { bookAt } from './depth';
import type { Book } from './depth';
import { DEFAULT_MARKET_MODEL, MarketFactor } from './hourly';
import type { MarketModel } from './hourly';
import type { Bar } from './minutes';
import { seed32 } from './rng';
import { ANCHOR_MINUTE, mergeBar, minuteOf, SymbolSeries } from './series';
import { findSymbol, formatPrice, formatVolume, SYMBOLS } from './symbols';
import type { SymbolSpec } from './symbols';
import { INTERVAL_MINUTES, SIMULATED } from './types';
import type { Candle, Depth, Interval, Quote } from './types';
import { formatAmount } from '../money';
import { estimatedFundingRate, markPrice, nextFunding, ratePercent } from '../trading/mark';

export const MAX_KLINE_LIMIT = 1000;
export const DEFAULT_KLINE_LIMIT = 200;
export const MAX_DEPTH_LIMIT = 100;

export class MarketSim {
  readonly seed: number;
  private readonly series = new Map<string, SymbolSeries>();

  constructor(seed: number, model: MarketModel = DEFAULT_MARKET_MODEL) {
    this.seed = seed32(seed);
    // The pairs' walks share the market factor's draws (computed once per hour, not once per pair).
    const factor = new MarketFactor(this.seed);
    for (const spec of SYMBOLS)
      this.series.set(spec.symbol, new SymbolSeries(this.seed, spec, model, factor));
  }

  /** The series of a pair, by any accepted spelling ("BTC/USDT", "BTCUSDT", "btc"). */
  find(symbol: string): SymbolSeries | undefined {
    const spec = findSymbol(symbol);
    return spec ? this.series.get(spec.symbol) : undefined;
  }

  get(spec: SymbolSpec): SymbolSeries {
    const series = this.series.get(spec.symbol);
    if (!series) throw new RangeError(`unknown symbol ${spec.symbol}`);
    return series;
  }

  /** Last traded price in micro-USDT. */
  price(spec: SymbolSpec, nowMs: number): number {
    return this.get(spec).priceAt(nowMs);
  }

  /**
   * Up to `limit` candles ending with the one in progress at `nowMs` (or, with `beforeSeconds`, the last
   * ones that opened strictly before it), oldest first.
   */
  klineBars(
    spec: SymbolSpec,
    interval: Interval,
    nowMs: number,
    limit = DEFAULT_KLINE_LIMIT,
    beforeSeconds?: number,
  ): { start: number; bar: Bar }[] {
    const series = this.get(spec);
    const len = INTERVAL_MINUTES[interval];
    let last = Math.floor(minuteOf(nowMs).minute / len);
    if (beforeSeconds !== undefined) {
      last = Math.min(last, Math.ceil((beforeSeconds / 60 - ANCHOR_MINUTE) / len) - 1);
    }
    const first = Math.max(0, last - Math.max(1, Math.min(limit, MAX_KLINE_LIMIT)) + 1);
    const out: { start: number; bar: Bar }[] = [];
    for (let i = first; i <= last; i++) {
      const bar = series.aggregate(i * len, (i + 1) * len, nowMs);
      if (bar) out.push({ start: (ANCHOR_MINUTE + i * len) * 60, bar });
    }
    return out;
  }

  kline(
    spec: SymbolSpec,
    interval: Interval,
    nowMs: number,
    limit?: number,
    beforeSeconds?: number,
  ): Candle[] {
    return this.klineBars(spec, interval, nowMs, limit, beforeSeconds).map(({ start, bar }) =>
      candle(start, bar),
    );
  }

  /**
   * Rolling 24h statistics at `nowMs`: the window is exactly (nowMs - 24 h, nowMs], to the millisecond. It
   * starts inside a minute (the same offset as now), so that minute counts only from that instant.
   */
  quote(spec: SymbolSpec, nowMs: number): Quote {
    const series = this.get(spec);
    const { minute, offset } = minuteOf(nowMs);
    const first = minute - 1440;
    const head = first >= 0 ? series.minutes.tailMinute(first, offset) : null;
    const rest = series.aggregate(Math.max(0, first + 1), minute + 1, nowMs);
    const window =
      (head && rest ? mergeBar(head, rest) : (head ?? rest)) ?? series.minutes.partialMinute(0, 0);
    const dayStart = minute - (minute % 1440);
    const prevClose = dayStart > 0 ? series.minutes.minute(dayStart - 1).c : window.o;
    return {
      symbol: spec.symbol,
      base: spec.base,
      latest: formatPrice(window.c),
      change24h: percent(window.c, window.o),
      high: formatPrice(window.h),
      low: formatPrice(window.l),
      open: formatPrice(window.o),
      prevClose: formatPrice(prevClose),
      volume: formatVolume(window.v),
      time: Math.floor(nowMs / 1000),
      source: SIMULATED,
      markPrice: formatAmount(markPrice(this, spec, nowMs)),
      fundingRate: ratePercent(estimatedFundingRate(this, spec, nowMs)),
      nextFundingTime: Math.floor(nextFunding(Math.floor(nowMs) + 1) / 1000),
    };
  }

  quotes(nowMs: number): Quote[] {
    return SYMBOLS.map((spec) => this.quote(spec, nowMs));
  }

  /** The book at `nowMs`; the depth call shows up to 100 levels, takers walk up to 1,000 (fills.ts). */
  book(spec: SymbolSpec, nowMs: number, levels: number, max = MAX_DEPTH_LIMIT): Book {
    return bookAt(this.seed, this.get(spec), nowMs, Math.max(1, Math.min(levels, max)));
  }

  depth(spec: SymbolSpec, nowMs: number, levels = 20): Depth {
    const book = this.book(spec, nowMs, levels);
    return {
      symbol: spec.symbol,
      asks: book.asks.map((l) => [formatPrice(l.price), formatVolume(l.qty)]),
      bids: book.bids.map((l) => [formatPrice(l.price), formatVolume(l.qty)]),
      time: Math.floor(nowMs / 1000),
    };
  }
}

export function candle(start: number, bar: Bar): Candle {
  return {
    time: start,
    open: formatPrice(bar.o),
    high: formatPrice(bar.h),
    low: formatPrice(bar.l),
    close: formatPrice(bar.c),
    volume: formatVolume(bar.v),
  };
}

/** Signed percent change with two decimals, rounded half away from zero. */
export function percent(now: number, then: number): string {
  if (then <= 0) return '0';
  const bp = Math.round((Math.abs(now - then) * 10_000) / then);
  const sign = now < then && bp > 0 ? '-' : '';
  return `${sign}${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
}
