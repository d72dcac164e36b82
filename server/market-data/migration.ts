/**
 * Migration 0009: the live market's tables. `market_candles`: each pair's and interval's K-line in live mode
 * (the index's candles, exact numerics, `time` the open in Unix seconds; server/market-data/candles.ts).
 * `market_minutes`: one row per pair and minute with the index's close and the perpetuals' premium (ppm),
 * what the mark price's basis average and funding are made of, shared by every instance. The engine's
 * `tradingHalts` table is created by the caller. docs/OPERATIONS.md "Market data and the house's risk".
 */
import type { MigrationContext } from '../sql-driver';

export async function marketTables({ c, s }: MigrationContext): Promise<void> {
  await c.query(`
    CREATE TABLE ${s}.market_candles (
      symbol text NOT NULL,
      interval text NOT NULL CHECK (interval IN ('1m', '5m', '15m', '30m', '1h', '4h', '1d')),
      time bigint NOT NULL,
      open numeric NOT NULL CHECK (open > 0),
      high numeric NOT NULL,
      low numeric NOT NULL,
      close numeric NOT NULL,
      volume numeric NOT NULL CHECK (volume >= 0),
      source text NOT NULL,
      CHECK (low <= open AND low <= close AND high >= open AND high >= close),
      PRIMARY KEY (symbol, interval, time)
    )`);
  await c.query(`
    CREATE TABLE ${s}.market_minutes (
      symbol text NOT NULL,
      minute bigint NOT NULL,
      index_price numeric NOT NULL CHECK (index_price > 0),
      premium_ppm integer NOT NULL,
      PRIMARY KEY (symbol, minute)
    )`);
}
