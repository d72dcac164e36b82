/**
 * The live K-line: the index's candles per pair and interval in PostgreSQL (market_candles), so
 * /api/market/kline answers on every instance, and the minute samples (market_minutes) mark and funding are
 * made of. At the gateway's start each venue's last MARKET_BACKFILL candles are composed per open time
 * (medians of open, high, low and close, volumes summed); then minutes are built from the index samples and
 * extend the longer intervals. docs/OPERATIONS.md "Market data and the house's risk" ("K-line").
 */
import { INTERVAL_MINUTES, formatAmount, type Candle, type Interval, SCALE } from '../../engine/server';
import { checkSchemaName, type SqlDriver } from '../sql-driver';
import { weightedMedian } from './index-price';
import type { SnapshotCandle } from './snapshot';
import type { VenueCandle } from './venue';

export interface MinuteSample {
  /** Minute start, ms. */
  minute: number;
  index: bigint;
  premiumPpm: number;
}

export interface CandleStore {
  /** The last `limit` candles of (symbol, interval) opening before `before` (Unix seconds), oldest first. */
  candles(symbol: string, interval: Interval, limit: number, before?: number): Promise<Candle[]>;
  /** The stored candle of (symbol, interval) that opens at `time` (Unix seconds), if any. */
  candleAt(symbol: string, interval: Interval, time: number): Promise<SnapshotCandle | null>;
  upsert(
    symbol: string,
    interval: Interval,
    candles: readonly SnapshotCandle[],
    source: string,
  ): Promise<void>;
  minutes(symbol: string, since: number): Promise<MinuteSample[]>;
  saveMinute(symbol: string, sample: MinuteSample): Promise<void>;
}

/** A snapshot's candle (micro-unit integer strings) as the wire's (decimal strings). */
export function wireCandle(c: SnapshotCandle): Candle {
  return {
    time: c.time,
    open: formatAmount(BigInt(c.open)),
    high: formatAmount(BigInt(c.high)),
    low: formatAmount(BigInt(c.low)),
    close: formatAmount(BigInt(c.close)),
    volume: formatAmount(BigInt(c.volume)),
  };
}

/** Candles in process memory (memory storage, tests). */
export function memoryCandles(): CandleStore {
  const rows = new Map<string, Map<number, SnapshotCandle>>();
  const minutes = new Map<string, Map<number, MinuteSample>>();
  const series = (symbol: string, interval: Interval) => {
    const key = `${symbol}|${interval}`;
    let m = rows.get(key);
    if (!m) rows.set(key, (m = new Map()));
    return m;
  };
  return {
    candles: async (symbol, interval, limit, before) =>
      [...series(symbol, interval).values()]
        .filter((c) => before === undefined || c.time < before)
        .sort((a, b) => a.time - b.time)
        .slice(-limit)
        .map(wireCandle),
    candleAt: async (symbol, interval, time) => series(symbol, interval).get(time) ?? null,
    upsert: async (symbol, interval, candles) => {
      for (const c of candles) series(symbol, interval).set(c.time, c);
    },
    minutes: async (symbol, since) =>
      [...(minutes.get(symbol)?.values() ?? [])]
        .filter((m) => m.minute >= since)
        .sort((a, b) => a.minute - b.minute),
    saveMinute: async (symbol, sample) => {
      let m = minutes.get(symbol);
      if (!m) minutes.set(symbol, (m = new Map()));
      m.set(sample.minute, sample);
    },
  };
}

/** micro-units <-> the table's exact decimals (numeric): text both ways, never a float. */
const toDecimal = (micro: string) => formatAmount(BigInt(micro));
function toMicro(decimal: string): string {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return (BigInt(whole) * SCALE + BigInt((fraction + '000000').slice(0, 6))).toString();
}

/** Candles in the SQL store's schema (market_candles, market_minutes: migration 0008). */
export function sqlCandles(driver: SqlDriver, schemaName: string): CandleStore {
  const s = checkSchemaName(schemaName);
  type Row = { time: string; open: string; high: string; low: string; close: string; volume: string };
  const fromRow = (r: Row): SnapshotCandle => ({
    time: Number(r.time),
    open: toMicro(r.open),
    high: toMicro(r.high),
    low: toMicro(r.low),
    close: toMicro(r.close),
    volume: toMicro(r.volume),
  });
  const columns =
    'time::text AS time, open::text AS open, high::text AS high, low::text AS low, close::text AS close, volume::text AS volume';
  return {
    candles: async (symbol, interval, limit, before) => {
      const { rows } = await driver.query<Row>(
        `SELECT ${columns} FROM ${s}.market_candles WHERE symbol = $1 AND interval = $2 AND time < $3 ` +
          `ORDER BY time DESC LIMIT $4`,
        [symbol, interval, before ?? Number.MAX_SAFE_INTEGER, limit],
        true,
      );
      return rows.reverse().map((r) => wireCandle(fromRow(r)));
    },
    candleAt: async (symbol, interval, time) => {
      const { rows } = await driver.query<Row>(
        `SELECT ${columns} FROM ${s}.market_candles WHERE symbol = $1 AND interval = $2 AND time = $3`,
        [symbol, interval, time],
        true,
      );
      return rows[0] ? fromRow(rows[0]) : null;
    },
    upsert: async (symbol, interval, candles, source) => {
      if (candles.length === 0) return;
      await driver.query(
        `INSERT INTO ${s}.market_candles (symbol, interval, time, open, high, low, close, volume, source) ` +
          `SELECT $1, $2, t, o::numeric, h::numeric, l::numeric, c::numeric, v::numeric, $3 ` +
          `FROM unnest($4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS x(t, o, h, l, c, v) ` +
          `ON CONFLICT (symbol, interval, time) DO UPDATE SET open = EXCLUDED.open, high = EXCLUDED.high, ` +
          `low = EXCLUDED.low, close = EXCLUDED.close, volume = EXCLUDED.volume, source = EXCLUDED.source`,
        [
          symbol,
          interval,
          source,
          candles.map((c) => c.time),
          candles.map((c) => toDecimal(c.open)),
          candles.map((c) => toDecimal(c.high)),
          candles.map((c) => toDecimal(c.low)),
          candles.map((c) => toDecimal(c.close)),
          candles.map((c) => toDecimal(c.volume)),
        ],
      );
    },
    minutes: async (symbol, since) => {
      const { rows } = await driver.query<{ minute: string; index: string; premium: number }>(
        `SELECT minute::text AS minute, index_price::text AS index, premium_ppm AS premium ` +
          `FROM ${s}.market_minutes WHERE symbol = $1 AND minute >= $2 ORDER BY minute`,
        [symbol, since],
      );
      return rows.map((r) => ({
        minute: Number(r.minute),
        index: BigInt(toMicro(r.index)),
        premiumPpm: r.premium,
      }));
    },
    saveMinute: async (symbol, sample) => {
      await driver.query(
        `INSERT INTO ${s}.market_minutes (symbol, minute, index_price, premium_ppm) VALUES ($1, $2, $3::numeric, $4) ` +
          `ON CONFLICT (symbol, minute) DO UPDATE SET index_price = EXCLUDED.index_price, premium_ppm = EXCLUDED.premium_ppm`,
        [symbol, sample.minute, formatAmount(sample.index), sample.premiumPpm],
        true,
      );
    },
  };
}

const median = (values: bigint[]) => weightedMedian(values.map((price) => ({ price, weight: 1 })));

/** The venues' candles of one interval composed per open time (see the file comment), oldest first. */
export function composeCandles(perVenue: readonly (readonly VenueCandle[])[]): SnapshotCandle[] {
  const byTime = new Map<number, VenueCandle[]>();
  for (const candles of perVenue)
    for (const c of candles) {
      const list = byTime.get(c.time) ?? [];
      list.push(c);
      byTime.set(c.time, list);
    }
  return [...byTime.entries()]
    .sort(([a], [b]) => a - b)
    .map(([time, list]) => {
      const open = median(list.map((c) => c.open));
      const close = median(list.map((c) => c.close));
      let high = median(list.map((c) => c.high));
      let low = median(list.map((c) => c.low));
      // Medians of each field may cross: the candle still holds its own open and close.
      for (const p of [open, close]) {
        if (p > high) high = p;
        if (p < low) low = p;
      }
      const volume = list.reduce((sum, c) => sum + c.volume, 0n);
      return {
        time: Math.floor(time / 1000),
        open: open.toString(),
        high: high.toString(),
        low: low.toString(),
        close: close.toString(),
        volume: volume.toString(),
      };
    });
}

/** Extends candle `base` (or starts one) with candle `next` of the same period or a later sub-period. */
export function mergeCandle(base: SnapshotCandle | null, next: SnapshotCandle, time: number): SnapshotCandle {
  if (!base) return { ...next, time };
  return {
    time,
    open: base.open,
    high: BigInt(next.high) > BigInt(base.high) ? next.high : base.high,
    low: BigInt(next.low) < BigInt(base.low) ? next.low : base.low,
    close: next.close,
    volume: (BigInt(base.volume) + BigInt(next.volume)).toString(),
  };
}

/** Unix seconds of the start of the period of `interval` holding `timeSec`. */
export function periodStart(interval: Interval, timeSec: number): number {
  const len = INTERVAL_MINUTES[interval] * 60;
  return Math.floor(timeSec / len) * len;
}
