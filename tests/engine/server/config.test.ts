/** The server's settings from the environment (docs/SERVER.md): defaults, parsing, and refusals. */
import { describe, expect, it } from 'vitest';
import { configFromEnv, DEFAULT_CORS_ORIGINS } from '../../../server/config';

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

  it('refuses values it cannot use instead of guessing', () => {
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => configFromEnv({ DEMO: 'maybe' })).toThrow(/DEMO/);
    expect(() => configFromEnv({ STORAGE: 'mongo' })).toThrow(/STORAGE/);
    expect(() => configFromEnv({ PBKDF2_ITERATIONS: '10' })).toThrow(/PBKDF2_ITERATIONS/);
  });
});
