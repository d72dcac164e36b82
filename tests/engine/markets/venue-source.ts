/**
 * A live market source for engine tests: the simulator's prices under a venue name, with a switch that
 * makes the index stale (as the gateway's does when too few venues update) and a shift of every price (a
 * market move), so the engine's live-mode rules can be driven without a gateway.
 */
import type { MarketSource } from '../../../engine/index';
import type { Book } from '../../../engine/market/depth';
import { marketFor } from '../../../engine/market/instance';
import { simulatedSource } from '../../../engine/market/source';

export const VENUES = 'binance,okx,coinbase';

export interface VenueSource extends MarketSource {
  /** Makes the index stale from `at` (ms), or fresh again (null). */
  setStale(at: number | null): void;
  /** Moves every price by `ppm` parts per million (-20_000: 2% down). */
  shift(ppm: number): void;
}

export function venueSource(seed: number): VenueSource {
  const sim = simulatedSource(marketFor(seed));
  let staleSince: number | null = null;
  let ppm = 0;
  const big = (p: bigint) => (p * BigInt(1_000_000 + ppm)) / 1_000_000n;
  const num = (p: number) => Math.round((p * (1_000_000 + ppm)) / 1_000_000);
  const book = (b: Book): Book => ({
    mid: num(b.mid),
    asks: b.asks.map((l) => ({ price: num(l.price), qty: l.qty })),
    bids: b.bids.map((l) => ({ price: num(l.price), qty: l.qty })),
  });
  return {
    ...sim,
    simulated: false,
    setStale: (at) => {
      staleSince = at;
    },
    shift: (value) => {
      ppm = value;
    },
    status: (_spec, now) => ({ source: VENUES, stale: staleSince !== null, time: staleSince ?? now }),
    price: (spec, t) => num(sim.price(spec, t)),
    extremes: (spec, from, to) => {
      const r = sim.extremes(spec, from, to);
      return { low: num(r.low), high: num(r.high) };
    },
    book: (spec, t, levels, max) => book(sim.book(spec, t, levels, max)),
    contractBook: (spec, t, levels) => book(sim.contractBook(spec, t, levels)),
    indexPrice: (spec, t) => big(sim.indexPrice(spec, t)),
    lastPrice: (spec, t) => big(sim.lastPrice(spec, t)),
    markPrice: (spec, t) => big(sim.markPrice(spec, t)),
    quotes: (now) =>
      sim.quotes(staleSince ?? now).map((q) => ({
        ...q,
        source: VENUES,
        ...(staleSince !== null ? { stale: true as const } : {}),
      })),
  };
}
