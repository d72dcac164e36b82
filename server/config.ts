/** The server's settings, from the environment (docs/SERVER.md lists them). */
import { isAddress } from 'viem';
import { watchOnlyKey, TRON_PREFIX, tronBase58check } from '../engine/server';
import { secretShape } from './key-shapes';
import { MarketConfigError, marketFromEnv, type MarketConfig } from './market-data/config';

export interface ServerConfig {
  port: number;
  host: string;
  /** PostgreSQL when set; else PGlite in `dataDir`, or memory when `storage` is 'memory'. */
  databaseUrl: string | undefined;
  dataDir: string;
  storage: 'sql' | 'memory';
  /** PostgreSQL schema of the tables. */
  schema: string;
  /** PostgreSQL connections per instance (PG_POOL_MAX): the units of work it runs at once. */
  poolSize: number;
  /**
   * Group commit on PostgreSQL (GROUP_COMMIT, default on; GROUP_COMMIT_MS, GROUP_COMMIT_MAX,
   * GROUP_COMMIT_BATCHES): units of work that arrive together share one transaction (server/group-commit.ts).
   * Null: each unit its own transaction.
   */
  groupCommit: { windowMs: number; maxUnits: number; maxBatches: number } | null;
  seed: number;
  /** Demo mode (API.md): /api/demo/* answer, the captcha shows its code. Off for a live server. */
  demo: boolean;
  /** PBKDF2 iterations for passwords and keys; undefined keeps the engine's default (600,000). */
  pbkdf2Iterations: number | undefined;
  /** Origins allowed by CORS; '*' allows any. */
  corsOrigins: string[];
  /** Largest request body in bytes (an upload is at most 5 MiB plus its multipart framing). */
  maxBodyBytes: number;
  /** Server-side limit of one call (the app gives up after 12 s too). */
  timeoutMs: number;
  /** How often the engine settles jobs and produces the market feed. */
  settleEveryMs: number;
  /** Captchas per client IP per minute (API.md rate limits). */
  captchaPerIpPerMinute: number;
  /** Serve this built app (dist/) with SPA fallback when set and present. */
  staticDir: string | undefined;
  /** The support contact of the site config; undefined keeps the engine's (demo) text. */
  customerService: string | undefined;
  /** Logins per client IP per minute, and for the whole server per minute (per account: the engine's). */
  loginPerIpPerMinute: number;
  loginGlobalPerMinute: number;
  /** Anonymous /ws sockets one client IP may hold open. */
  anonymousSocketsPerIp: number;
  /** Rate-limit counters shared by all instances; memory when undefined. */
  redisUrl: string | undefined;
  /** Prefix of the rate-limit keys in Redis (several deployments may share one Redis). */
  redisPrefix: string;
  /** Trust X-Forwarded-For/-Proto from this many proxy hops (0: none). */
  trustProxy: number;
  /** The deposit key's extended public key (live mode; docs/SERVER.md "Key custody"). */
  walletXpub: string | undefined;
  /** pino log level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** The live EVM chain (docs/OPERATIONS.md "Chain gateway"); undefined: no EVM gateway. */
  evm: EvmChainConfig | undefined;
  /** The live TRON chain (docs/OPERATIONS.md "The live server's chain"); undefined: no TRON gateway. */
  tron: TronChainConfig | undefined;
  /** The signer process (server/signer); undefined: gateways watch deposits but cannot send. */
  signer: { url: string; secret: string } | undefined;
  /** How often the lease holder polls the chain gateways for deposits (CHAIN_POLL_MS; 0: never). */
  chainPollMs: number;
  /**
   * AES-256 key (TOTP_ENCRYPTION_KEY, base64 of 32 bytes) sealing members' authenticator secrets; undefined:
   * the engine's per-database key, kept in the database itself (development only: docs/DEPLOY.md).
   */
  totpEncryptionKey: string | undefined;
  /**
   * Ed25519 seed (POR_SIGNING_KEY, base64 of 32 bytes) signing the proof-of-reserves snapshots; undefined: the
   * engine's per-database key, made at the first snapshot and kept in the database (docs/DEPLOY.md).
   */
  porSigningKey: string | undefined;
  /** Origins whose pages may use passkeys (PASSKEY_ORIGINS); default: the CORS origins and the static app's. */
  passkeyOrigins: string[];
  /** The market-data gateway (MARKET_VENUES...; server/market-data/config.ts); undefined: no live market. */
  market: MarketConfig | undefined;
  /** Where Prometheus scrapes /metrics (METRICS_PORT, default 9464, on HOST); null: not served (`off`). */
  metricsPort: number | null;
  /**
   * On SIGTERM, how long /readyz answers 503 "draining" while every request is still served, before the
   * server stops taking connections (DRAIN_DELAY_MS; behind a balancer: its check interval times its fall
   * count, so it stops sending new requests first). Default 0.
   */
  drainDelayMs: number;
  /** Upload attempts one client IP may make per hour (UPLOADS_PER_IP; counted with the rate limits). */
  uploadsPerIpPerHour: number;
  /** Bytes one client IP may store in uploads per 24 hours (UPLOAD_BYTES_PER_IP; SQL storage). */
  uploadBytesPerIp: number;
  /** Bytes all uploads may take in storage (UPLOAD_STORAGE_MAX; SQL storage). */
  uploadStorageMaxBytes: number;
  /**
   * Run pending migrations at start (MIGRATE_AT_START, default true). Production sets false: the server's
   * role cannot change the schema, `npm run migrate` runs them as the migrations role (docs/DEPLOY.md).
   */
  migrateAtStart: boolean;
  /**
   * A memory-reducing garbage collection after this long without a request, once per busy-then-idle turn
   * (IDLE_GC_MS, default 10,000; 0: never; server/idle-gc.ts).
   */
  idleGcMs: number;
}

/** The largest upload (the engine's uploadMaxBytes): the smallest byte bound that lets one through. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** A byte size: digits, optionally followed by B, KiB, MiB, GiB or TiB (`20GiB`); at least `min`. */
function bytes(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw);
  const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? 'x'];
  const value = match && unit ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(value) || value < min)
    throw new ConfigError(
      `${name} must be a size in bytes or with a unit (KiB, MiB, GiB, TiB: e.g. 20GiB) of at least ` +
        `${min / 1048576} MiB, the largest upload (docs/DEPLOY.md "Uploads")`,
    );
  return value;
}

export interface EvmChainConfig {
  /** JSON-RPC URL of the node (EVM_RPC_URL). */
  rpcUrl: string;
  /** The USDT (ERC-20) contract (EVM_USDT_ADDRESS). */
  token: string;
  /** Token decimals (EVM_USDT_DECIMALS, 6). */
  decimals: number;
  /** Confirmations before a deposit is credited (EVM_CONFIRMATIONS); undefined keeps the engine's 12. */
  confirmations: number | undefined;
  /** First block to scan on the first start (EVM_FROM_BLOCK); default: the head at the first poll. */
  fromBlock: bigint | undefined;
  /** The hot wallet's address (EVM_HOT_WALLET): the signer's must match; without a signer, solvency uses it. */
  hotWallet: string | undefined;
}

export interface TronChainConfig {
  /** TronGrid (or a full node's /wallet plus TronGrid's /v1) base URL (TRON_API_URL). */
  apiUrl: string;
  /** TronGrid's API key (TRON_API_KEY), sent as TRON-PRO-API-KEY; a secret, never logged. */
  apiKey: string | undefined;
  /** The USDT (TRC-20) contract, base58 (TRON_USDT_ADDRESS). */
  token: string;
  /** Confirmations before a deposit is credited (TRON_CONFIRMATIONS); undefined keeps the engine's 19. */
  confirmations: number | undefined;
  /** The hot wallet, base58 (TRON_HOT_WALLET): the signer's must match; without a signer, solvency uses it. */
  hotWallet: string | undefined;
}

/**
 * Environment variables that would put a private key in the API server's process. The server refuses to
 * start with any of them (docs/SERVER.md "Key custody"): keys belong to the signer process.
 */
const KEY_VARIABLES =
  /^(SIGNER_EVM_KEY|SIGNER_TRON_KEY|PRIVATE_KEY|MNEMONIC|SEED_PHRASE|WALLET_XPRV|WALLET_MNEMONIC|.*_PRIVATE_KEY)$/i;

/**
 * Names of the variables in `env` that hold a private key: by their name, or, whatever their name, by the
 * shape of their value (a raw key, an extended private key, a mnemonic: server/key-shapes.ts).
 */
export function privateKeyVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value?.trim() && (KEY_VARIABLES.test(name) || secretShape(name, value)))
    .map(([name]) => name)
    .sort();
}

/** Why a live server refuses to start (DEMO=false without the deposit key). */
export class ConfigError extends Error {}

export const DEFAULT_CORS_ORIGINS = [
  'http://127.0.0.1:5173',
  'http://localhost:5173',
  'http://127.0.0.1:4173',
  'http://localhost:4173',
];

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}`);
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false`);
}

/**
 * The settings from `env`. `defaultDemo` is what an unset DEMO means: false for the production start,
 * true for the development command (`npm run server`), so it starts with no setup on demo keys.
 */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  options: { defaultDemo?: boolean; requireKey?: boolean } = {},
): ServerConfig {
  const storage = env['STORAGE']?.trim().toLowerCase();
  if (storage && storage !== 'memory' && storage !== 'sql') throw new Error('STORAGE must be memory or sql');
  const cors = env['CORS_ORIGINS']?.trim();
  const demo = bool(env, 'DEMO', options.defaultDemo ?? false);
  const walletXpub = env['WALLET_XPUB']?.trim() || undefined;
  if (options.requireKey && !demo && !walletXpub)
    throw new ConfigError(
      'WALLET_XPUB is required when DEMO=false: set it to the extended public key of the deposit wallet ' +
        "(m/44'/195'/0', docs/SERVER.md \"Key custody\"), or run with DEMO=true for demo addresses.",
    );
  if (walletXpub) {
    try {
      watchOnlyKey(walletXpub);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
  }
  const keys = privateKeyVariables(env);
  if (keys.length > 0)
    throw new ConfigError(
      `${keys.join(', ')} must not be set for the API server: it holds no private key, and these hold one ` +
        "(by name, or a value shaped like a key or a mnemonic). The hot wallet's key belongs to the signer " +
        'process (npm run signer, docs/OPERATIONS.md "The signer process"); a password that merely looks ' +
        'like a key (64 hex digits) can take another form (openssl rand -base64 32).',
    );
  const corsList = cors ? cors.split(',').map((o) => o.trim().replace(/\/$/, '')) : DEFAULT_CORS_ORIGINS;
  if (!demo && corsList.includes('*'))
    throw new ConfigError(
      "CORS_ORIGINS=* is for demo mode only: a live server names the app's origin(s), e.g. " +
        'CORS_ORIGINS=https://app.example.com (docs/DEPLOY.md "Settings")',
    );
  const { evm, tron, signer } = chainFromEnv(env, demo);
  let market: MarketConfig | undefined;
  try {
    market = marketFromEnv(env, demo);
  } catch (error) {
    throw error instanceof MarketConfigError ? new ConfigError(error.message) : error;
  }
  const logLevel = env['LOG_LEVEL']?.trim() || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel))
    throw new Error('LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent');
  return {
    port: int(env, 'PORT', 8787),
    host: env['HOST']?.trim() || '127.0.0.1',
    databaseUrl: env['DATABASE_URL']?.trim() || undefined,
    dataDir: env['DATA_DIR']?.trim() || './.data',
    storage: storage === 'memory' ? 'memory' : 'sql',
    schema: env['DB_SCHEMA']?.trim() || 'strata',
    poolSize: int(env, 'PG_POOL_MAX', 10, 1),
    groupCommit: bool(env, 'GROUP_COMMIT', true)
      ? {
          windowMs: int(env, 'GROUP_COMMIT_MS', 1, 0),
          maxUnits: int(env, 'GROUP_COMMIT_MAX', 64, 1),
          maxBatches: int(env, 'GROUP_COMMIT_BATCHES', 1, 1),
        }
      : null,
    seed: int(env, 'SEED', 1),
    demo,
    pbkdf2Iterations: env['PBKDF2_ITERATIONS'] ? int(env, 'PBKDF2_ITERATIONS', 0, 1000) : undefined,
    corsOrigins: corsList,
    maxBodyBytes: int(env, 'BODY_LIMIT', 6 * 1024 * 1024, 1024),
    timeoutMs: int(env, 'TIMEOUT_MS', 12_000, 1),
    settleEveryMs: int(env, 'SETTLE_EVERY_MS', 1_000, 0),
    captchaPerIpPerMinute: int(env, 'CAPTCHA_PER_IP', 30, 1),
    staticDir: env['STATIC_DIR']?.trim() || undefined,
    customerService: env['CUSTOMER_SERVICE']?.trim() || undefined,
    loginPerIpPerMinute: int(env, 'LOGIN_PER_IP', 20, 1),
    loginGlobalPerMinute: int(env, 'LOGIN_GLOBAL', 600, 1),
    anonymousSocketsPerIp: int(env, 'WS_ANONYMOUS_PER_IP', 20, 1),
    redisUrl: env['REDIS_URL']?.trim() || undefined,
    redisPrefix: env['REDIS_PREFIX']?.trim() || 'strata-rl-',
    trustProxy: int(env, 'TRUST_PROXY', 0, 0),
    walletXpub,
    logLevel,
    evm,
    tron,
    signer,
    chainPollMs: int(env, 'CHAIN_POLL_MS', 5_000, 0),
    totpEncryptionKey: secretBoxKey(env),
    porSigningKey: base64Key(env, 'POR_SIGNING_KEY'),
    passkeyOrigins: origins(env['PASSKEY_ORIGINS']) ?? corsList.filter((o) => o !== '*'),
    market,
    metricsPort: env['METRICS_PORT']?.trim().toLowerCase() === 'off' ? null : int(env, 'METRICS_PORT', 9464),
    drainDelayMs: int(env, 'DRAIN_DELAY_MS', 0),
    uploadsPerIpPerHour: int(env, 'UPLOADS_PER_IP', 30, 1),
    uploadBytesPerIp: bytes(env, 'UPLOAD_BYTES_PER_IP', 100 * 1024 ** 2, UPLOAD_MAX_BYTES),
    uploadStorageMaxBytes: bytes(env, 'UPLOAD_STORAGE_MAX', 20 * 1024 ** 3, UPLOAD_MAX_BYTES),
    migrateAtStart: bool(env, 'MIGRATE_AT_START', true),
    idleGcMs: int(env, 'IDLE_GC_MS', 10_000, 0),
  };
}

function origins(raw: string | undefined): string[] | undefined {
  const list = raw
    ?.split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter(Boolean);
  if (!list?.length) return undefined;
  for (const origin of list) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new ConfigError(`PASSKEY_ORIGINS: ${origin} is not an origin (https://host[:port])`);
    }
    if (url.origin !== origin) throw new ConfigError(`PASSKEY_ORIGINS: ${origin} is not an origin`);
  }
  return list;
}

function secretBoxKey(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env['TOTP_ENCRYPTION_KEY']?.trim();
  if (!raw) return undefined;
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : Buffer.alloc(0);
  if (bytes.length !== 32)
    throw new ConfigError('TOTP_ENCRYPTION_KEY must be 32 random bytes in base64 (openssl rand -base64 32)');
  return raw;
}

/** A 32-byte key in base64 from `name`, or undefined when unset. */
function base64Key(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : Buffer.alloc(0);
  if (bytes.length !== 32)
    throw new ConfigError(`${name} must be 32 random bytes in base64 (openssl rand -base64 32)`);
  return raw;
}

function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http(s) URL`);
  return raw.replace(/\/$/, '');
}

function evmAddress(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!isAddress(raw, { strict: false }))
    throw new ConfigError(`${name} must be an EVM address (0x and 40 hex digits)`);
  return raw;
}

function tronAddressVar(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let bytes: Uint8Array | undefined;
  try {
    bytes = tronBase58check.decode(raw);
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 21 || bytes[0] !== TRON_PREFIX)
    throw new ConfigError(`${name} must be a TRON address (base58check, T...)`);
  return raw;
}

/** The EVM gateway's settings, or undefined without EVM_RPC_URL (then no other EVM_ variable may be set). */
function evmFromEnv(env: NodeJS.ProcessEnv, demo: boolean): EvmChainConfig | undefined {
  const rpcUrl = httpUrl(env, 'EVM_RPC_URL');
  const token = evmAddress(env, 'EVM_USDT_ADDRESS');
  const hotWallet = evmAddress(env, 'EVM_HOT_WALLET');
  const confirmations = env['EVM_CONFIRMATIONS']?.trim() ? int(env, 'EVM_CONFIRMATIONS', 12, 1) : undefined;
  const fromBlock = env['EVM_FROM_BLOCK']?.trim() ? BigInt(int(env, 'EVM_FROM_BLOCK', 0, 0)) : undefined;
  const decimals = int(env, 'EVM_USDT_DECIMALS', 6, 6);
  if (!rpcUrl) {
    const stray = ['EVM_USDT_ADDRESS', 'EVM_HOT_WALLET', 'EVM_CONFIRMATIONS', 'EVM_FROM_BLOCK'].filter(
      (name) => env[name]?.trim(),
    );
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set without EVM_RPC_URL`);
    return undefined;
  }
  if (demo)
    throw new ConfigError(
      'EVM_RPC_URL is for live mode (DEMO=false): demo mode runs on the simulated chains',
    );
  if (!token)
    throw new ConfigError('EVM_USDT_ADDRESS (the USDT token contract) is required with EVM_RPC_URL');
  return { rpcUrl, token, decimals, confirmations, fromBlock, hotWallet };
}

/** The TRON gateway's settings, or undefined without TRON_API_URL (then no other TRON_ variable may be set). */
function tronFromEnv(env: NodeJS.ProcessEnv, demo: boolean): TronChainConfig | undefined {
  const apiUrl = httpUrl(env, 'TRON_API_URL');
  const apiKey = env['TRON_API_KEY']?.trim() || undefined;
  const token = tronAddressVar(env, 'TRON_USDT_ADDRESS');
  const hotWallet = tronAddressVar(env, 'TRON_HOT_WALLET');
  const confirmations = env['TRON_CONFIRMATIONS']?.trim() ? int(env, 'TRON_CONFIRMATIONS', 19, 1) : undefined;
  if (!apiUrl) {
    const stray = ['TRON_API_KEY', 'TRON_USDT_ADDRESS', 'TRON_HOT_WALLET', 'TRON_CONFIRMATIONS'].filter(
      (name) => env[name]?.trim(),
    );
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set without TRON_API_URL`);
    return undefined;
  }
  if (demo)
    throw new ConfigError(
      'TRON_API_URL is for live mode (DEMO=false): demo mode runs on the simulated chains',
    );
  if (!token)
    throw new ConfigError(
      'TRON_USDT_ADDRESS (the USDT TRC-20 contract, base58) is required with TRON_API_URL',
    );
  if (apiKey !== undefined && !/^[A-Za-z0-9-]{8,100}$/.test(apiKey))
    throw new ConfigError('TRON_API_KEY must be a TronGrid API key (letters, digits and dashes)');
  return { apiUrl, apiKey, token, confirmations, hotWallet };
}

/** The chain settings (docs/OPERATIONS.md "Chain gateway"), each combination checked. */
function chainFromEnv(env: NodeJS.ProcessEnv, demo: boolean): Pick<ServerConfig, 'evm' | 'tron' | 'signer'> {
  const evm = evmFromEnv(env, demo);
  const tron = tronFromEnv(env, demo);
  const signerUrl = httpUrl(env, 'SIGNER_URL');
  const secret = env['SIGNER_TOKEN']?.trim() || undefined;
  if (!evm && !tron) {
    if (signerUrl) throw new ConfigError('SIGNER_URL set without EVM_RPC_URL or TRON_API_URL');
    return { evm: undefined, tron: undefined, signer: undefined };
  }
  if (signerUrl && !secret)
    throw new ConfigError('SIGNER_TOKEN (the shared secret) is required with SIGNER_URL');
  if (secret && !signerUrl) throw new ConfigError('SIGNER_TOKEN set without SIGNER_URL');
  if (secret && secret.length < 32) throw new ConfigError('SIGNER_TOKEN must be at least 32 characters');
  return { evm, tron, signer: signerUrl && secret ? { url: signerUrl, secret } : undefined };
}
