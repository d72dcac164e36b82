/**
 * The simulated order book: levels either side of the traded price with the symbol's spread, redrawn
 * every 100 ms from counter-based randomness, so the book at any instant is reproducible.
 */
import { hashWords, unit } from './rng';
import type { SymbolSeries } from './series';
import { VOLUME_SCALE } from './symbols';

export const BOOK_REFRESH_MS = 100;
const SALT_BOOK = 21;

/** Integer micro-USDT price and 1e-4-unit quantity. */
export interface BookLevel {
  price: number;
  qty: number;
}

export interface Book {
  mid: number;
  asks: BookLevel[];
  bids: BookLevel[];
}

export function bookAt(seed: number, series: SymbolSeries, nowMs: number, levels: number): Book {
  const spec = series.spec;
  const tick = spec.tick;
  const mid = series.priceAt(nowMs);
  const frame = Math.floor(nowMs / BOOK_REFRESH_MS);
  const half = Math.max(tick, Math.round((mid * spec.halfSpreadBps) / 10_000 / tick) * tick);
  const step = Math.max(tick, Math.round((mid * 0.8) / 10_000 / tick) * tick);
  const baseQty = spec.minuteVolume * VOLUME_SCALE * 0.03;
  const asks: BookLevel[] = [];
  const bids: BookLevel[] = [];
  let ask = mid + half;
  let bid = Math.max(tick, mid - half);
  for (let i = 0; i < levels; i++) {
    const ka = hashWords(seed ^ SALT_BOOK, spec.id, frame, 2 * i);
    const kb = hashWords(seed ^ SALT_BOOK, spec.id, frame, 2 * i + 1);
    asks.push({ price: ask, qty: quantity(baseQty, i, ka) });
    if (bid > 0) bids.push({ price: bid, qty: quantity(baseQty, i, kb) });
    // Occasional gaps make the ladder look like a real book rather than a grid.
    ask += step * (1 + (unit(hashWords(ka, 9)) < 0.2 ? 1 : 0));
    bid -= step * (1 + (unit(hashWords(kb, 9)) < 0.2 ? 1 : 0));
    if (bid < tick) bid = 0;
  }
  return { mid, asks, bids };
}

function quantity(baseQty: number, level: number, key: number): number {
  const depthFactor = 1 + level * 0.15;
  return Math.max(1, Math.round(baseQty * depthFactor * (0.2 + 1.6 * unit(key))));
}
