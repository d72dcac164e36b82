/**
 * What the gateway (on the lease holder) sends every instance, once per publish period, for each pair: the
 * index and its venues, the perpetuals' premium, the venues' combined book, the 24-hour figures and the
 * current candles. Every instance prices from the last snapshot it heard (replica.ts). Prices are integer
 * strings of micro-USDT, quantities integer strings of micro base units (book levels: numbers in the
 * engine's book units), times in ms.
 */

export const SNAPSHOT_TYPE = 'market.snapshot';

export interface SnapshotCandle {
  /** Open time, Unix seconds. */
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Micro base units. */
  volume: string;
}

export interface VenueState {
  venue: string;
  /** The venue's last price (micro-USDT), null before its first. */
  price: string | null;
  /** When it last sent anything for the pair (ms), null: never. */
  time: number | null;
  /** In the index now, left out (stale, outlier), or not listing the pair. */
  state: 'used' | 'stale' | 'outlier' | 'unlisted';
}

export interface PairSnapshot {
  symbol: string;
  /** When the gateway made this snapshot (ms). */
  at: number;
  /** The index now, or the last fresh one when stale; null before the first. */
  index: string | null;
  /** When the index was last made of fresh prices (ms); 0 before the first. */
  indexTime: number;
  stale: boolean;
  /** The venues of the index ("binance,okx,coinbase"); the last ones used when stale. */
  source: string;
  /** The perpetuals' premium over the index, parts per million (0 without MARKET_PERPETUALS). */
  premiumPpm: number;
  /** The 24 hours (micro-USDT; volume micro base units), null where the venues gave none. */
  open: string | null;
  high: string | null;
  low: string | null;
  volume: string | null;
  /** The close of the previous UTC day. */
  prevClose: string | null;
  /** The combined book, best first: [price micro-USDT, quantity 1e-4 base units]. */
  bids: [number, number][];
  asks: [number, number][];
  /** The current candle of each interval. */
  candles: Partial<Record<Interval, SnapshotCandle>>;
  venues: VenueState[];
}

const intText = (v: unknown): v is string => typeof v === 'string' && /^\d{1,30}$/.test(v);
const maybeInt = (v: unknown): boolean => v === null || intText(v);
const levels = (v: unknown): v is [number, number][] =>
  Array.isArray(v) &&
  v.every(
    (l) => Array.isArray(l) && l.length === 2 && Number.isSafeInteger(l[0]) && Number.isSafeInteger(l[1]),
  );

function isCandle(v: unknown): v is SnapshotCandle {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(c['time']) &&
    intText(c['open']) &&
    intText(c['high']) &&
    intText(c['low']) &&
    intText(c['close']) &&
    intText(c['volume'])
  );
}

/** A snapshot heard on the bus, checked field by field (a malformed one is dropped, never half applied). */
export function parseSnapshot(value: unknown): PairSnapshot | null {
  if (typeof value !== 'object' || value === null) return null;
  const s = value as Record<string, unknown>;
  if (typeof s['symbol'] !== 'string' || !Number.isSafeInteger(s['at'])) return null;
  if (!maybeInt(s['index']) || !Number.isSafeInteger(s['indexTime']) || typeof s['stale'] !== 'boolean')
    return null;
  if (typeof s['source'] !== 'string' || !Number.isSafeInteger(s['premiumPpm'])) return null;
  for (const key of ['open', 'high', 'low', 'volume', 'prevClose']) if (!maybeInt(s[key])) return null;
  if (!levels(s['bids']) || !levels(s['asks'])) return null;
  const candles = s['candles'];
  if (typeof candles !== 'object' || candles === null) return null;
  for (const [interval, candle] of Object.entries(candles)) {
    if (!(INTERVALS as readonly string[]).includes(interval) || !isCandle(candle)) return null;
  }
  if (!Array.isArray(s['venues'])) return null;
  return value as PairSnapshot;
}
import { INTERVALS, type Interval } from '../../engine/server';
