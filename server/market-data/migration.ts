/**
 * Migration 0009 (issue 28, docs/OPERATIONS.md "Market data and the house's risk"): the live market's tables.
 *
 * - `market_candles`: the K-line of each pair and interval in live mode: the index's candles, backfilled
 *   from the venues at start and built from their streams (server/market-data/candles.ts). Prices and
 *   volumes are exact decimals (numeric); `time` is the candle's open in Unix seconds.
 * - `market_minutes`: one row per pair and minute with the index's close and the perpetuals' premium over
 *   it (parts per million): what the mark price's basis average and the funding rate are made of
 *   (docs/TRADING.md "Mark price"), kept across restarts and shared by every instance.
 * The engine's kill-switch table (`tradingHalts`, engine/trading/house.ts) is created by the caller.
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
