/**
 * Market impact (docs/TRADING.md "Market impact"): the book remembers what members' orders took from it
 * and refills over time. A taker order that takes quantity Q from one side of a pair's book leaves that
 * side Q thinner at its top; what is missing decays exponentially with the refill time constant
 * (REFILL_MS), the transient impact of Obizhaeva and Wang (2013, "Optimal trading strategy and
 * supply/demand dynamics", J. Financial Markets 16): D(t) = D(t0) e^{-(t - t0) / tau}. The next order walks
 * the book with its first D(t) units gone, so a big sweep moves the next order's fill price, and the book
 * is whole again after a few time constants (entirely after REFILL_HORIZON_MS).
 *
 * One record per market (spot or contract), pair and side of the book: the quantity missing, in book units
 * (1e-4 base), as of a time. Member orders read and write it (spot takers, contract opens and closes);
 * liquidations neither read nor write it, so their outcome stays a function of the prices alone, whatever
 * the clock's step (risk.ts). Floats appear only in the decay; what the walk uses is an integer quantity,
 * and prices stay the book's own tick-rounded levels.
 */
import type { Ctx } from '../context';
import { dexp } from '../market/detmath';
import type { SymbolSpec } from '../market/symbols';
import type { Micro } from '../money';
import { defineTable } from '../store/port';
import { BOOK_TO_MICRO } from './fills';

/** The refill time constant: a minute. */
export const REFILL_MS = 60_000;
/** Ten time constants (e^-10, under 1/20,000 of a sweep): the book is whole again. */
export const REFILL_HORIZON_MS = 10 * REFILL_MS;

export interface BookImpactRow {
  /** "contract:BTC/USDT:asks": market, pair and the side of the book taken from. */
  id: string;
  /** Book units (1e-4 base) missing from the top of that side at `at`. */
  missing: number;
  at: number;
}

export const bookImpact = defineTable<BookImpactRow>('bookImpact');

export type ImpactMarket = 'spot' | 'contract';

function keyOf(market: ImpactMarket, spec: SymbolSpec, side: 'buy' | 'sell'): string {
  return `${market}:${spec.symbol}:${side === 'buy' ? 'asks' : 'bids'}`;
}

/** What is still missing at `t` of `missing` units taken at `at` (whole units, rounded down). */
export function refilled(missing: number, at: number, t: number): number {
  const dt = t - at;
  if (missing <= 0 || dt >= REFILL_HORIZON_MS) return 0;
  if (dt <= 0) return missing;
  return Math.floor(missing * dexp(-dt / REFILL_MS));
}

/** The units missing now from the side a taker on `side` walks (buy: asks, sell: bids). */
export async function missingAt(
  ctx: Ctx,
  market: ImpactMarket,
  spec: SymbolSpec,
  side: 'buy' | 'sell',
): Promise<number> {
  const row = await ctx.tx.get(bookImpact, keyOf(market, spec, side));
  return row ? refilled(row.missing, row.at, ctx.now) : 0;
}

/** Records that an order took `quantity` (micro base units) when `missing` units were already gone. */
export function recordTaken(
  ctx: Ctx,
  market: ImpactMarket,
  spec: SymbolSpec,
  side: 'buy' | 'sell',
  missing: number,
  quantity: Micro,
): void {
  if (quantity <= 0n) return;
  const taken = Number((quantity + BOOK_TO_MICRO - 1n) / BOOK_TO_MICRO);
  ctx.tx.put(bookImpact, { id: keyOf(market, spec, side), missing: missing + taken, at: ctx.now });
}
