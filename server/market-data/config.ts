/**
 * The market-data gateway's settings (MARKET_VENUES, MARKET_PAIRS, MARKET_WEIGHTS, MARKET_STALE_SECONDS,
 * MARKET_OUTLIER_BPS, MARKET_MIN_VENUES, MARKET_BOOK_LEVELS, MARKET_PERPETUALS, MARKET_POLL_MS,
 * MARKET_BACKFILL), read from the environment and checked at start: a wrong value stops the server naming
 * the variable. Without MARKET_VENUES a live server has no market. Defaults and meanings: docs/DEPLOY.md
 * "Market data"; what members see: docs/OPERATIONS.md "Market data and the house's risk".
 */

export class MarketConfigError extends Error {}

export interface MarketConfig {
  /** ccxt exchange ids, in the order given. */
  venues: string[];
  pairs: SymbolSpec[];
  /** Index weight per venue (positive integers). */
  weights: Record<string, number>;
  staleMs: number;
  outlierBps: number;
  minVenues: number;
  bookLevels: number;
  perpetuals: boolean;
  pollMs: number;
  backfill: number;
}

const VENUE_ID = /^[a-z][a-z0-9]{1,30}$/;

function intVar(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max)
    throw new MarketConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return value;
}

function list(raw: string): string[] {
  return raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/**
 * The gateway's settings from `env`, or undefined without MARKET_VENUES (then no other MARKET_ variable
 * may be set). Demo mode always uses the simulator, so MARKET_VENUES there is a mistake.
 */
export function marketFromEnv(env: NodeJS.ProcessEnv, demo: boolean): MarketConfig | undefined {
  const rawVenues = env['MARKET_VENUES']?.trim();
  if (!rawVenues) {
    const stray = Object.keys(env)
      .filter((name) => name.startsWith('MARKET_') && env[name]?.trim())
      .sort();
    if (stray.length > 0) throw new MarketConfigError(`${stray.join(', ')} set without MARKET_VENUES`);
    return undefined;
  }
  if (demo)
    throw new MarketConfigError(
      'MARKET_VENUES is for live mode (DEMO=false): demo mode always shows the simulated market',
    );
  const venues = list(rawVenues.toLowerCase());
  for (const venue of venues)
    if (!VENUE_ID.test(venue))
      throw new MarketConfigError(
        `MARKET_VENUES: "${venue}" is not an exchange id (binance, okx, coinbase...)`,
      );
  if (new Set(venues).size !== venues.length)
    throw new MarketConfigError('MARKET_VENUES names a venue twice');
  if (venues.length < 3)
    throw new MarketConfigError(
      `MARKET_VENUES needs at least three venues for an index price (got ${venues.length}: ${venues.join(',')})`,
    );

  const rawPairs = env['MARKET_PAIRS']?.trim();
  const pairs: SymbolSpec[] = [];
  if (rawPairs) {
    for (const name of list(rawPairs)) {
      const spec = findSymbol(name);
      if (!spec)
        throw new MarketConfigError(
          `MARKET_PAIRS: "${name}" is not one of ${SYMBOLS.map((s) => s.symbol).join(', ')}`,
        );
      if (!pairs.includes(spec)) pairs.push(spec);
    }
    if (pairs.length === 0) throw new MarketConfigError('MARKET_PAIRS names no pair');
  } else {
    pairs.push(...SYMBOLS);
  }

  const weights: Record<string, number> = Object.fromEntries(venues.map((v) => [v, 1]));
  const rawWeights = env['MARKET_WEIGHTS']?.trim();
  if (rawWeights) {
    for (const entry of list(rawWeights)) {
      const match = /^([a-z0-9]+):(\d{1,6})$/.exec(entry.toLowerCase());
      if (!match) throw new MarketConfigError(`MARKET_WEIGHTS: "${entry}" is not venue:weight (binance:2)`);
      const [, venue, weight] = match as unknown as [string, string, string];
      if (!venues.includes(venue))
        throw new MarketConfigError(`MARKET_WEIGHTS: "${venue}" is not in MARKET_VENUES`);
      if (Number(weight) < 1)
        throw new MarketConfigError(`MARKET_WEIGHTS: the weight of ${venue} must be at least 1`);
      weights[venue] = Number(weight);
    }
  }

  const perpetualsRaw = env['MARKET_PERPETUALS']?.trim().toLowerCase();
  let perpetuals = false;
  if (perpetualsRaw) {
    if (['1', 'true', 'yes', 'on'].includes(perpetualsRaw)) perpetuals = true;
    else if (!['0', 'false', 'no', 'off'].includes(perpetualsRaw))
      throw new MarketConfigError('MARKET_PERPETUALS must be true or false');
  }

  return {
    venues,
    pairs,
    weights,
    staleMs: intVar(env, 'MARKET_STALE_SECONDS', 10, 1, 3_600) * 1_000,
    outlierBps: intVar(env, 'MARKET_OUTLIER_BPS', 500, 1, 5_000),
    minVenues: intVar(env, 'MARKET_MIN_VENUES', 2, 1, venues.length),
    bookLevels: intVar(env, 'MARKET_BOOK_LEVELS', 50, 1, 1_000),
    perpetuals,
    pollMs: intVar(env, 'MARKET_POLL_MS', 2_000, 100, 600_000),
    backfill: intVar(env, 'MARKET_BACKFILL', 500, 0, 1_000),
  };
}
import { SYMBOLS, findSymbol, type SymbolSpec } from '../../engine/server';
