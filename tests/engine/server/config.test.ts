/** The server's settings from the environment (docs/SERVER.md): defaults, parsing, and refusals. */
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv, DEFAULT_CORS_ORIGINS } from '../../../server/config';
import { TEST_XPUB } from './serve';

describe('server config', () => {
  it('defaults to a live, local server on PGlite in ./.data', () => {
    const c = configFromEnv({});
    expect(c).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: './.data',
      storage: 'sql',
      demo: false,
      pbkdf2Iterations: undefined,
      timeoutMs: 12_000,
      settleEveryMs: 1_000,
      captchaPerIpPerMinute: 30,
    });
    expect(c.corsOrigins).toEqual(DEFAULT_CORS_ORIGINS);
  });

  it('reads every variable', () => {
    const c = configFromEnv({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://x@db/y',
      STORAGE: 'memory',
      SEED: '42',
      DEMO: 'true',
      PBKDF2_ITERATIONS: '100000',
      CORS_ORIGINS: 'https://app.example/, https://b.example',
      DB_SCHEMA: 'live',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://x@db/y',
      storage: 'memory',
      seed: 42,
      demo: true,
      pbkdf2Iterations: 100_000,
      schema: 'live',
    });
    expect(c.corsOrigins).toEqual(['https://app.example', 'https://b.example']);
  });

  it('live mode needs WALLET_XPUB (an extended public key); the development command defaults to demo', () => {
    expect(() => configFromEnv({}, { requireKey: true })).toThrow(ConfigError);
    expect(() => configFromEnv({ DEMO: 'false' }, { requireKey: true })).toThrow(/WALLET_XPUB/);
    expect(() => configFromEnv({ WALLET_XPUB: 'xpub-not-a-key' })).toThrow(/WALLET_XPUB/);
    expect(configFromEnv({ WALLET_XPUB: TEST_XPUB }, { requireKey: true })).toMatchObject({
      demo: false,
      walletXpub: TEST_XPUB,
    });
    expect(configFromEnv({}, { defaultDemo: true, requireKey: true }).demo).toBe(true);
    expect(
      configFromEnv({
        REDIS_URL: 'redis://r:6379/2',
        TRUST_PROXY: '1',
        LOGIN_PER_IP: '5',
        LOG_LEVEL: 'warn',
      }),
    ).toMatchObject({
      redisUrl: 'redis://r:6379/2',
      trustProxy: 1,
      loginPerIpPerMinute: 5,
      logLevel: 'warn',
    });
    expect(() => configFromEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('refuses values it cannot use instead of guessing', () => {
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => configFromEnv({ DEMO: 'maybe' })).toThrow(/DEMO/);
    expect(() => configFromEnv({ STORAGE: 'mongo' })).toThrow(/STORAGE/);
    expect(() => configFromEnv({ PBKDF2_ITERATIONS: '10' })).toThrow(/PBKDF2_ITERATIONS/);
  });
});
