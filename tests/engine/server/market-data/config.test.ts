/**
 * MARKET_* settings (server/market-data/config.ts): checked at start, every refusal names its variable.
 */
import { describe, expect, it } from 'vitest';
import { configFromEnv, ConfigError } from '../../../../server/config';
import { marketFromEnv } from '../../../../server/market-data/config';

const live = { DEMO: 'false' };

describe('market settings', () => {
  it('are absent without MARKET_VENUES, and complete with defaults when it is set', () => {
    expect(marketFromEnv({}, false)).toBeUndefined();
    const m = marketFromEnv({ MARKET_VENUES: 'binance, OKX,coinbase' }, false)!;
    expect(m).toMatchObject({
      venues: ['binance', 'okx', 'coinbase'],
      weights: { binance: 1, okx: 1, coinbase: 1 },
      staleMs: 10_000,
      outlierBps: 500,
      minVenues: 2,
      bookLevels: 50,
      perpetuals: false,
    });
    expect(m.pairs.map((p) => p.symbol)).toHaveLength(8);
    const some = marketFromEnv(
      {
        MARKET_VENUES: 'binance,okx,coinbase,kraken',
        MARKET_PAIRS: 'BTCUSDT, eth/usdt',
        MARKET_WEIGHTS: 'binance:3,kraken:2',
        MARKET_STALE_SECONDS: '5',
        MARKET_PERPETUALS: 'true',
        MARKET_MIN_VENUES: '3',
      },
      false,
    )!;
    expect(some.pairs.map((p) => p.symbol)).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(some).toMatchObject({
      weights: { binance: 3, okx: 1, coinbase: 1, kraken: 2 },
      staleMs: 5_000,
      perpetuals: true,
      minVenues: 3,
    });
  });

  it.each([
    [{ MARKET_VENUES: 'binance,okx' }, /MARKET_VENUES needs at least three venues/],
    [{ MARKET_VENUES: 'binance,okx,okx' }, /MARKET_VENUES names a venue twice/],
    [{ MARKET_VENUES: 'binance,okx,coin base' }, /MARKET_VENUES: "coin base"/],
    [
      { MARKET_VENUES: 'binance,okx,coinbase', MARKET_PAIRS: 'BTC/USDT,SHIB/USDT' },
      /MARKET_PAIRS: "SHIB\/USDT"/,
    ],
    [
      { MARKET_VENUES: 'binance,okx,coinbase', MARKET_WEIGHTS: 'kraken:2' },
      /MARKET_WEIGHTS: "kraken" is not in MARKET_VENUES/,
    ],
    [{ MARKET_VENUES: 'binance,okx,coinbase', MARKET_WEIGHTS: 'okx=2' }, /MARKET_WEIGHTS: "okx=2"/],
    [
      { MARKET_VENUES: 'binance,okx,coinbase', MARKET_STALE_SECONDS: '0' },
      /MARKET_STALE_SECONDS must be an integer from 1/,
    ],
    [
      { MARKET_VENUES: 'binance,okx,coinbase', MARKET_MIN_VENUES: '4' },
      /MARKET_MIN_VENUES must be an integer from 1 to 3/,
    ],
    [
      { MARKET_VENUES: 'binance,okx,coinbase', MARKET_PERPETUALS: 'maybe' },
      /MARKET_PERPETUALS must be true or false/,
    ],
    [{ MARKET_PAIRS: 'BTC/USDT' }, /MARKET_PAIRS set without MARKET_VENUES/],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => configFromEnv({ ...live, ...env })).toThrow(ConfigError);
    expect(() => configFromEnv({ ...live, ...env })).toThrow(message);
  });

  it('refuses MARKET_VENUES in demo mode: the demo always shows the simulator', () => {
    expect(() => configFromEnv({ DEMO: 'true', MARKET_VENUES: 'binance,okx,coinbase' })).toThrow(
      /MARKET_VENUES is for live mode/,
    );
  });
});
