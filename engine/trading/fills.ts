/**
 * Taking liquidity from the simulated book (docs/RULES.md S2, K9; docs/TRADING.md "Fills"). A taker order
 * takes the best level, then the next, until it is filled, until its limit price, or until the next level
 * lies outside the price protection band around the traded price (priceBandBps, default 5%): Binance's
 * "percent price" protection. Each level taken is one fill at that level's price; what the book could not
 * fill within the band is the order's cancelled volume.
 */
import type { Ctx } from '../context';
import type { Book, BookLevel } from '../market/depth';
import { marketOf } from '../market/instance';
import type { SymbolSpec } from '../market/symbols';
import { mulDiv, SCALE, type Micro } from '../money';

/** Book quantities are in 1e-4 base units; ledger quantities in 1e-6. */
export const BOOK_TO_MICRO = 100n;
/** How deep a taker may walk: 1,000 levels reach past any band up to about 9% from the price. */
export const WALK_LEVELS = 1_000;
/** Most orders need a few levels: the book is generated this deep first (a prefix of the full book). */
export const FIRST_LEVELS = 64;

export interface Fill {
  /** Micro-USDT per base unit. */
  price: Micro;
  /** Micro base units. */
  quantity: Micro;
}

export interface Walk {
  fills: Fill[];
  quantity: Micro;
  /** Sum of quantity x price over the fills, still scaled by 1e6. */
  valueScaled: bigint;
  /** Why the walk stopped before the volume: the band, the limit price, or the end of the book. */
  stop: 'filled' | 'band' | 'limit' | 'book';
}

/** The band's edge for a taker on `side` around `reference` (buy: above, rounded down; sell: below, up). */
export function bandEdge(side: 'buy' | 'sell', reference: Micro, bandBps: number): Micro {
  return side === 'buy'
    ? mulDiv(reference, 10_000n + BigInt(bandBps), 10_000n, 'floor')
    : mulDiv(reference, 10_000n - BigInt(bandBps), 10_000n, 'ceil');
}

/** Walks `book` for up to `volume`: asks for a buy, bids for a sell. Pure, for the engine and the bench. */
export function walkBook(
  book: Book,
  side: 'buy' | 'sell',
  volume: Micro,
  options: { limit: Micro | null; bandBps: number },
): Walk {
  const levels = side === 'buy' ? book.asks : book.bids;
  const edge = bandEdge(side, BigInt(book.mid), options.bandBps);
  const fills: Fill[] = [];
  let quantity = 0n;
  let valueScaled = 0n;
  let stop: Walk['stop'] = 'book';
  for (const level of levels) {
    const price = BigInt(level.price);
    const limit = options.limit;
    if (limit !== null && (side === 'buy' ? price > limit : price < limit)) {
      stop = 'limit';
      break;
    }
    if (side === 'buy' ? price > edge : price < edge) {
      stop = 'band';
      break;
    }
    const available = BigInt(level.qty) * BOOK_TO_MICRO;
    const take = volume - quantity < available ? volume - quantity : available;
    fills.push({ price, quantity: take });
    quantity += take;
    valueScaled += take * price;
    if (quantity === volume) {
      stop = 'filled';
      break;
    }
  }
  return { fills, quantity, valueScaled, stop };
}

/**
 * `book` with its first `missing` units (1e-4 base) gone from the side a taker on `side` walks (buy: asks,
 * sell: bids): what members' earlier orders took and the book has not refilled yet (impact.ts).
 */
export function depleted(book: Book, side: 'buy' | 'sell', missing: number): Book {
  if (missing <= 0) return book;
  const levels = side === 'buy' ? book.asks : book.bids;
  const left: BookLevel[] = [];
  let gone = missing;
  for (const level of levels) {
    if (gone >= level.qty) {
      gone -= level.qty;
      continue;
    }
    left.push(gone > 0 ? { price: level.price, qty: level.qty - gone } : level);
    gone = 0;
  }
  return side === 'buy' ? { ...book, asks: left } : { ...book, bids: left };
}

/**
 * Walks the live book of `spec` at ctx.now with the configured band, its first `missing` units gone
 * (impact.ts). The first 64 levels are tried first; the full 1,000 when they do not suffice.
 */
export function takeFromBook(
  ctx: Ctx,
  spec: SymbolSpec,
  side: 'buy' | 'sell',
  volume: Micro,
  limit: Micro | null = null,
  missing = 0,
): Walk {
  const options = { limit, bandBps: ctx.config.priceBandBps };
  const sim = marketOf(ctx);
  const book = (levels: number): Book =>
    depleted(sim.book(spec, ctx.now, levels, WALK_LEVELS), side, missing);
  const first = walkBook(book(FIRST_LEVELS), side, volume, options);
  if (first.stop !== 'book') return first;
  return walkBook(book(WALK_LEVELS), side, volume, options);
}

/** Average fill price, rounded half up to the micro-USDT; 0 for an empty walk. */
export function averagePrice(walk: Pick<Walk, 'quantity' | 'valueScaled'>): Micro {
  return walk.quantity > 0n ? mulDiv(walk.valueScaled, 1n, walk.quantity, 'half-up') : 0n;
}

/** Value of one fill in micro-USDT: what a buyer pays (rounded up) or a seller gets (rounded down). */
export function fillValue(fill: Fill, side: 'buy' | 'sell'): Micro {
  return mulDiv(fill.quantity, fill.price, SCALE, side === 'buy' ? 'ceil' : 'floor');
}
