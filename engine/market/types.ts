/** Wire shapes of the market calls and feed messages (API.md; decimal strings, Unix seconds). */

export const INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
export type Interval = (typeof INTERVALS)[number];

export const INTERVAL_MINUTES: Readonly<Record<Interval, number>> = {
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '4h': 240,
  '1d': 1440,
};

export function isInterval(value: unknown): value is Interval {
  return typeof value === 'string' && (INTERVALS as readonly string[]).includes(value);
}

export interface Candle {
  /** Open time, Unix seconds. */
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Base-asset volume. */
  volume: string;
}

/** The `source` of every simulated quote (demo mode). */
export const SIMULATED = 'simulated';

/** 24h statistics of one pair (SPEC.md §3 "Market quote"). */
export interface Quote {
  symbol: string;
  base: string;
  latest: string;
  /** Percent with two decimals, signed: "-1.25". */
  change24h: string;
  high: string;
  low: string;
  /** Price 24 hours ago (start of the rolling window). */
  open: string;
  /** Close of the previous UTC day. */
  prevClose: string;
  /** Base-asset volume over the rolling 24 hours. */
  volume: string;
  /** When these prices were current (Unix seconds): now, or the last fresh prices of a stale pair. */
  time: number;
  /**
   * Where the prices come from: "simulated" (demo mode), or the venues whose prices make the pair's index,
   * comma-separated ("binance,okx,coinbase"). Absent only in quotes a device stored before it was sent.
   */
  source: string;
  /** Present when the pair's index is stale: the prices are the last fresh ones, as of `time`. */
  stale?: true;
  /**
   * Mark price of the pair's perpetual contract (engine/trading/mark.ts): what positions are valued at.
   * Absent in quotes a device stored before it was sent.
   */
  markPrice?: string;
  /**
   * The perpetual's estimated funding rate for the next funding time, percent with four decimals
   * ("0.0100"; positive: longs pay shorts), from the premium so far (engine/trading/mark.ts).
   */
  fundingRate?: string;
  /** The next funding time (00:00, 08:00, 16:00 UTC), Unix seconds. */
  nextFundingTime?: number;
}

/** [price, quantity] */
export type DepthLevel = [string, string];

export interface Depth {
  symbol: string;
  asks: DepthLevel[];
  bids: DepthLevel[];
  time: number;
}

/** The `getQuota` feed message: the book as the original app's entries, bids under buy, asks under sell. */
export interface QuotaBook {
  symbol: string;
  buy: { bid: string; amount: string }[];
  sell: { ask: string; amount: string }[];
  time: number;
}

export interface CurrEntry {
  symbol: string;
  latest: string;
  change24h: string;
  time: number;
  /** The contract's mark price, as in Quote. */
  markPrice?: string;
  /** As in Quote. */
  source: string;
  stale?: true;
}

export interface KlineUpdate {
  symbol: string;
  interval: Interval;
  list: Candle[];
}

export type MarketFeedMessage =
  | { type: 'ticker24hr'; data: Quote[] }
  | { type: 'Curr'; data: Record<string, CurrEntry> }
  | { type: 'Kline'; data: KlineUpdate }
  | { type: 'getQuota'; data: QuotaBook };
