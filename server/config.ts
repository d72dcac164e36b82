/** The server's settings, from the environment (docs/SERVER.md lists them). */
import { watchOnlyKey } from '../engine/chain/addresses';

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
    seed: int(env, 'SEED', 1),
    demo,
    pbkdf2Iterations: env['PBKDF2_ITERATIONS'] ? int(env, 'PBKDF2_ITERATIONS', 0, 1000) : undefined,
    corsOrigins: cors ? cors.split(',').map((o) => o.trim().replace(/\/$/, '')) : DEFAULT_CORS_ORIGINS,
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
  };
}
