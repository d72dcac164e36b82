/**
 * The lowest and highest traded price in a window of engine time, for resting orders, liquidations and
 * anything else that must notice a price that was touched between two settles (even across a long gap).
 * Whole minutes use their candles; the ragged edges are sampled once a second, the feed's ticker rate.
 */
import { MINUTE_MS } from './minutes';
import type { SymbolSeries } from './series';
import { ANCHOR_MINUTE } from './series';

const SECOND = 1_000;

export interface Range {
  low: number;
  high: number;
}

function sample(series: SymbolSeries, from: number, to: number, range: Range): void {
  for (let t = Math.floor(from / SECOND) * SECOND + SECOND; t <= to; t += SECOND) {
    const p = series.priceAt(t);
    if (p < range.low) range.low = p;
    if (p > range.high) range.high = p;
  }
}

/** Extremes over (t0, t1], always including the price at t1. */
export function extremesBetween(series: SymbolSeries, t0: number, t1: number): Range {
  const last = series.priceAt(t1);
  const range: Range = { low: last, high: last };
  if (t1 <= t0) return range;
  const firstWhole = Math.ceil(t0 / MINUTE_MS) * MINUTE_MS;
  const lastWhole = Math.floor(t1 / MINUTE_MS) * MINUTE_MS;
  if (lastWhole - firstWhole < MINUTE_MS) {
    sample(series, t0, t1, range);
    return range;
  }
  sample(series, t0, firstWhole, range);
  const bar = series.aggregate(
    firstWhole / MINUTE_MS - ANCHOR_MINUTE,
    lastWhole / MINUTE_MS - ANCHOR_MINUTE,
    lastWhole,
  );
  if (bar) {
    range.low = Math.min(range.low, bar.l);
    range.high = Math.max(range.high, bar.h);
  }
  sample(series, lastWhole, t1, range);
  return range;
}
