/**
 * Market impact: the book remembers what members' orders took from it and refills over time, the transient
 * impact of Obizhaeva and Wang (2013): D(t) = D(t0) e^{-(t - t0) / tau}, one record per market, pair and side.
 * Member taker orders read and write it; liquidations neither, so they stay a function of the prices alone.
 * Floats appear only in the decay. Constants, figures and why: docs/TRADING.md "Market impact".
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
