/**
 * Where the engine's prices come from: every price, book, candle and quote it uses is asked of one
 * MarketSource, the market counterparty of engine/counterparties.ts: the simulator in demo mode (a pure
 * function of seed, model and time), the market-data gateway's in live mode (server/market-data/source.ts;
 * without one, no market: 403). A live source answers from what it has seen. docs/OPERATIONS.md "Market data
 * and the house's risk".
 */
import type { Micro } from '../money';
import { contractBook, fundingRate, indexPrice, lastPrice, markPrice } from '../trading/mark';
import type { Book } from './depth';
import { extremesBetween, type Range } from './extremes';
import { feedMessagesBetween, type MarketSubscription, type TimedMessage } from './feed';
import type { MarketSim } from './market';
import { SYMBOLS, type SymbolSpec } from './symbols';
import { SIMULATED, type Candle, type Depth, type Interval, type Quote } from './types';

export interface PairStatus {
  /** "simulated", or the venues the pair's index is made of now, comma-separated ("binance,okx,coinbase"). */
  source: string;
  /**
   * The index has no fresh prices (too few venues updated lately): new orders are refused (4036),
   * liquidations wait, and quotes say `stale: true`. It clears by itself when prices come back.
   */
  stale: boolean;
  /** When the index last had fresh prices (ms). */
  time: number;
}

export interface MarketSource {
  /** True for the simulator: its prices are never shown as real. */
  readonly simulated: boolean;
  /** The pairs this source prices, in display order. */
  pairs(): readonly SymbolSpec[];
  status(spec: SymbolSpec, now: number): PairStatus;
  /** The pair's spot price at `t` (micro-USDT): the simulated trade price, or the live index. */
  price(spec: SymbolSpec, t: number): number;
  /** The lowest and highest spot price over (from, to], always including the price at `to`. */
  extremes(spec: SymbolSpec, from: number, to: number): Range;
  /** The spot book at `t`, up to `levels` a side (`max` caps it). */
  book(spec: SymbolSpec, t: number, levels: number, max?: number): Book;
  indexPrice(spec: SymbolSpec, t: number): Micro;
  /** The perpetual's last price at `t`. */
  lastPrice(spec: SymbolSpec, t: number): Micro;
  markPrice(spec: SymbolSpec, t: number): Micro;
  /** The funding rate (ppm) settled at funding time `at`. */
  fundingRate(spec: SymbolSpec, at: number): number;
  /** The perpetual's book at `t`. */
  contractBook(spec: SymbolSpec, t: number, levels: number): Book;
  quotes(now: number): Quote[];
  kline(
    spec: SymbolSpec,
    interval: Interval,
    now: number,
    limit?: number,
    before?: number,
  ): Promise<Candle[]>;
  depth(spec: SymbolSpec, now: number, limit: number): Depth;
  /** The market feed's messages for (from, to] (engine/market/feed.ts). */
  feed(from: number, to: number, subscriptions: readonly MarketSubscription[]): TimedMessage[];
}

/** The simulator as a source: every answer a pure function of (seed, model, pair, time). */
export function simulatedSource(sim: MarketSim): MarketSource {
  return {
    simulated: true,
    pairs: () => SYMBOLS,
    status: (_spec, now) => ({ source: SIMULATED, stale: false, time: now }),
    price: (spec, t) => sim.price(spec, t),
    extremes: (spec, from, to) => extremesBetween(sim.get(spec), from, to),
    book: (spec, t, levels, max) => sim.book(spec, t, levels, max),
    indexPrice: (spec, t) => indexPrice(sim, spec, t),
    lastPrice: (spec, t) => lastPrice(sim, spec, t),
    markPrice: (spec, t) => markPrice(sim, spec, t),
    fundingRate: (spec, at) => fundingRate(sim, spec, at),
    contractBook: (spec, t, levels) => contractBook(sim, spec, t, levels),
    quotes: (now) => sim.quotes(now),
    kline: async (spec, interval, now, limit, before) => sim.kline(spec, interval, now, limit, before),
    depth: (spec, now, limit) => sim.depth(spec, now, limit),
    feed: (from, to, subscriptions) => feedMessagesBetween(sim, from, to, subscriptions),
  };
}
