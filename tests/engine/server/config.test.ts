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

  it('upload bounds (audit M3): defaults, sizes with units, and a refusal naming the variable', () => {
    expect(configFromEnv({})).toMatchObject({
      uploadsPerIpPerHour: 30,
      uploadBytesPerIp: 100 * 1024 ** 2,
      uploadStorageMaxBytes: 20 * 1024 ** 3,
    });
    expect(
      configFromEnv({ UPLOADS_PER_IP: '5', UPLOAD_BYTES_PER_IP: '64MiB', UPLOAD_STORAGE_MAX: '2 TiB' }),
    ).toMatchObject({
      uploadsPerIpPerHour: 5,
      uploadBytesPerIp: 64 * 1024 ** 2,
      uploadStorageMaxBytes: 2 * 1024 ** 4,
    });
    expect(configFromEnv({ UPLOAD_STORAGE_MAX: String(6 * 1024 ** 2) }).uploadStorageMaxBytes).toBe(
      6 * 1024 ** 2,
    );
    for (const [name, value] of [
      ['UPLOAD_STORAGE_MAX', '10GB'],
      ['UPLOAD_STORAGE_MAX', '4MiB'],
      ['UPLOAD_STORAGE_MAX', '-1'],
      ['UPLOAD_BYTES_PER_IP', 'lots'],
      ['UPLOAD_BYTES_PER_IP', '1.5GiB'],
    ] as const) {
      expect(() => configFromEnv({ [name]: value })).toThrow(ConfigError);
      expect(() => configFromEnv({ [name]: value })).toThrow(new RegExp(`^${name} must be a size`));
    }
    expect(() => configFromEnv({ UPLOADS_PER_IP: '0' })).toThrow(/UPLOADS_PER_IP must be an integer >= 1/);
  });

  it('MIGRATE_AT_START: migrations at start by default; false leaves them to npm run migrate', () => {
    expect(configFromEnv({}).migrateAtStart).toBe(true);
    expect(configFromEnv({ MIGRATE_AT_START: 'false' }).migrateAtStart).toBe(false);
    expect(() => configFromEnv({ MIGRATE_AT_START: 'later' })).toThrow(
      /MIGRATE_AT_START must be true or false/,
    );
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

  it('the EVM chain and the signer: read, checked together, live mode only', () => {
    const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const secret = 's'.repeat(32);
    const live = { WALLET_XPUB: TEST_XPUB, EVM_RPC_URL: 'http://127.0.0.1:8545/', EVM_USDT_ADDRESS: token };
    expect(configFromEnv({})).toMatchObject({ evm: undefined, signer: undefined, chainPollMs: 5_000 });
    expect(
      configFromEnv({
        ...live,
        EVM_CONFIRMATIONS: '3',
        EVM_FROM_BLOCK: '100',
        SIGNER_URL: 'http://127.0.0.1:8788',
        SIGNER_TOKEN: secret,
        CHAIN_POLL_MS: '2000',
      }),
    ).toMatchObject({
      evm: { rpcUrl: 'http://127.0.0.1:8545', token, decimals: 6, confirmations: 3, fromBlock: 100n },
      signer: { url: 'http://127.0.0.1:8788', secret },
      chainPollMs: 2_000,
    });
    // Watch-only: no signer, deposits are still watched.
    expect(configFromEnv(live)).toMatchObject({ evm: { confirmations: undefined }, signer: undefined });
    expect(() => configFromEnv({ EVM_RPC_URL: 'http://n' })).toThrow(/EVM_USDT_ADDRESS/);
    expect(() => configFromEnv({ ...live, EVM_USDT_ADDRESS: '0x1234' })).toThrow(/EVM_USDT_ADDRESS/);
    expect(() => configFromEnv({ ...live, EVM_RPC_URL: 'ws://n' })).toThrow(/EVM_RPC_URL/);
    expect(() => configFromEnv({ ...live, EVM_CONFIRMATIONS: '0' })).toThrow(/EVM_CONFIRMATIONS/);
    expect(() => configFromEnv({ ...live, SIGNER_URL: 'http://s' })).toThrow(/SIGNER_TOKEN/);
    expect(() => configFromEnv({ ...live, SIGNER_URL: 'http://s', SIGNER_TOKEN: 'short' })).toThrow(
      /at least 32/,
    );
    expect(() => configFromEnv({ SIGNER_URL: 'http://s', SIGNER_TOKEN: secret })).toThrow(
      /without EVM_RPC_URL/,
    );
    expect(() => configFromEnv({ ...live, DEMO: 'true' })).toThrow(/live mode/);
  });

  it('the TRON chain: read, checked together with the signer, live mode only', () => {
    const token = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const hot = 'TBwhFWjboSVwDeaULDCmWVgYL5Ra62cNHE';
    const secret = 's'.repeat(32);
    const live = {
      WALLET_XPUB: TEST_XPUB,
      TRON_API_URL: 'https://api.trongrid.io/',
      TRON_USDT_ADDRESS: token,
    };
    expect(configFromEnv({})).toMatchObject({ tron: undefined });
    expect(
      configFromEnv({
        ...live,
        TRON_API_KEY: '25f66928-0b70-48cd-9ac6-da6f8247c663',
        TRON_CONFIRMATIONS: '20',
        TRON_HOT_WALLET: hot,
        SIGNER_URL: 'http://127.0.0.1:8788',
        SIGNER_TOKEN: secret,
      }),
    ).toMatchObject({
      evm: undefined,
      tron: {
        apiUrl: 'https://api.trongrid.io',
        apiKey: '25f66928-0b70-48cd-9ac6-da6f8247c663',
        token,
        confirmations: 20,
        hotWallet: hot,
      },
      signer: { url: 'http://127.0.0.1:8788', secret },
    });
    // Watch-only, and beside the EVM chain.
    expect(configFromEnv(live)).toMatchObject({ tron: { confirmations: undefined, apiKey: undefined } });
    expect(
      configFromEnv({
        ...live,
        EVM_RPC_URL: 'http://127.0.0.1:8545',
        EVM_USDT_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      }),
    ).toMatchObject({ evm: { rpcUrl: 'http://127.0.0.1:8545' }, tron: { token } });
    expect(() => configFromEnv({ TRON_API_URL: 'http://n' })).toThrow(/TRON_USDT_ADDRESS/);
    expect(() => configFromEnv({ ...live, TRON_USDT_ADDRESS: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' })).toThrow(
      /TRON_USDT_ADDRESS must be a TRON address/,
    );
    expect(() =>
      configFromEnv({ ...live, TRON_USDT_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }),
    ).toThrow(/TRON_USDT_ADDRESS/);
    expect(() => configFromEnv({ ...live, TRON_HOT_WALLET: 'T123' })).toThrow(/TRON_HOT_WALLET/);
    expect(() => configFromEnv({ ...live, TRON_API_URL: 'ftp://n' })).toThrow(/TRON_API_URL/);
    expect(() => configFromEnv({ ...live, TRON_CONFIRMATIONS: '0' })).toThrow(/TRON_CONFIRMATIONS/);
    expect(() => configFromEnv({ ...live, TRON_API_KEY: 'a b\r\nX: y' })).toThrow(/TRON_API_KEY/);
    expect(() => configFromEnv({ ...live, SIGNER_URL: 'http://s' })).toThrow(/SIGNER_TOKEN/);
    for (const name of ['TRON_API_KEY', 'TRON_USDT_ADDRESS', 'TRON_HOT_WALLET', 'TRON_CONFIRMATIONS'])
      expect(() => configFromEnv({ [name]: name === 'TRON_CONFIRMATIONS' ? '19' : token })).toThrow(
        new RegExp(`${name} set without TRON_API_URL`),
      );
    expect(() => configFromEnv({ SIGNER_URL: 'http://s', SIGNER_TOKEN: secret })).toThrow(
      /without EVM_RPC_URL or TRON_API_URL/,
    );
    expect(() => configFromEnv({ ...live, DEMO: 'true' })).toThrow(/TRON_API_URL is for live mode/);
    expect(() => configFromEnv({ WALLET_XPUB: TEST_XPUB, SIGNER_TRON_KEY: '11'.repeat(32) })).toThrow(
      /SIGNER_TRON_KEY must not be set/,
    );
  });

  it('refuses to start with a private key in its environment: keys belong to the signer process', () => {
    for (const env of [
      { SIGNER_EVM_KEY: '0x' + '11'.repeat(32) },
      { EVM_PRIVATE_KEY: '0x' + '11'.repeat(32) },
      { MNEMONIC: 'test test test' },
      {
        SOMETHING:
          'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
      },
    ]) {
      expect(() => configFromEnv({ WALLET_XPUB: TEST_XPUB, ...env })).toThrow(ConfigError);
      expect(() => configFromEnv({ WALLET_XPUB: TEST_XPUB, ...env })).toThrow(Object.keys(env)[0]);
    }
  });

  it('L3 refuses key- and mnemonic-shaped values under any name', () => {
    const words = 'abandon ability able about above absent absorb abstract absurd abuse access accident';
    for (const env of [
      { HOT_KEY: `0x${'1f'.repeat(32)}` },
      { TRON_WALLET: 'A1'.repeat(32) },
      { WALLET_SEED: words },
      { BACKUP: `${words} acoustic acquire across act action actor actress actual adapt add addict address` },
      { SEED_WORDS: '  Test  test test test test test test test test test test JUNK\n' },
      { SOMETHING: `yprv${'A'.repeat(100)}` },
    ]) {
      const [name] = Object.keys(env);
      expect(() => configFromEnv({ WALLET_XPUB: TEST_XPUB, ...env }), name).toThrow(ConfigError);
      expect(() => configFromEnv({ WALLET_XPUB: TEST_XPUB, ...env }), name).toThrow(
        new RegExp(`${name} must not be set`),
      );
    }
    // Not keys: the shared secret with the signer (often openssl rand -hex 32), hashes and addresses of
    // other lengths, a sentence, eleven words of the list.
    const fine = configFromEnv({
      WALLET_XPUB: TEST_XPUB,
      EVM_RPC_URL: 'http://127.0.0.1:8545',
      EVM_USDT_ADDRESS: `0x${'5f'.repeat(20)}`,
      SIGNER_URL: 'http://127.0.0.1:8788',
      SIGNER_TOKEN: 'ab'.repeat(32),
      GIT_COMMIT: 'cd'.repeat(20),
      MOTD: 'the quick brown fox jumps over the lazy dog again and again today',
      NOTE: words.split(' ').slice(0, 11).join(' '),
    });
    expect(fine.signer?.secret).toBe('ab'.repeat(32));
  });

  it('L4 refuses CORS_ORIGINS=* in live mode (any origin could call the API with a member token)', () => {
    expect(() => configFromEnv({ WALLET_XPUB: TEST_XPUB, CORS_ORIGINS: '*' })).toThrow(ConfigError);
    expect(() => configFromEnv({ WALLET_XPUB: TEST_XPUB, CORS_ORIGINS: 'https://app.example, *' })).toThrow(
      /CORS_ORIGINS=\* is for demo mode/,
    );
    expect(configFromEnv({ DEMO: 'true', CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it('takes the proof-of-reserves signing key from POR_SIGNING_KEY, 32 bytes in base64, else none', () => {
    expect(configFromEnv({ DEMO: 'true' }).porSigningKey).toBeUndefined();
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(configFromEnv({ DEMO: 'true', POR_SIGNING_KEY: key }).porSigningKey).toBe(key);
    for (const bad of ['short', Buffer.alloc(31, 7).toString('base64'), `${key}!`])
      expect(() => configFromEnv({ DEMO: 'true', POR_SIGNING_KEY: bad })).toThrow(/POR_SIGNING_KEY/);
  });
});
