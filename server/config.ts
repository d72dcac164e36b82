/** The server's settings, from the environment (docs/SERVER.md lists them). */

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
}

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

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const storage = env['STORAGE']?.trim().toLowerCase();
  if (storage && storage !== 'memory' && storage !== 'sql') throw new Error('STORAGE must be memory or sql');
  const cors = env['CORS_ORIGINS']?.trim();
  return {
    port: int(env, 'PORT', 8787),
    host: env['HOST']?.trim() || '127.0.0.1',
    databaseUrl: env['DATABASE_URL']?.trim() || undefined,
    dataDir: env['DATA_DIR']?.trim() || './.data',
    storage: storage === 'memory' ? 'memory' : 'sql',
    schema: env['DB_SCHEMA']?.trim() || 'strata',
    poolSize: int(env, 'PG_POOL_MAX', 10, 1),
    seed: int(env, 'SEED', 1),
    demo: bool(env, 'DEMO', false),
    pbkdf2Iterations: env['PBKDF2_ITERATIONS'] ? int(env, 'PBKDF2_ITERATIONS', 0, 1000) : undefined,
    corsOrigins: cors ? cors.split(',').map((o) => o.trim().replace(/\/$/, '')) : DEFAULT_CORS_ORIGINS,
    maxBodyBytes: int(env, 'BODY_LIMIT', 6 * 1024 * 1024, 1024),
    timeoutMs: int(env, 'TIMEOUT_MS', 12_000, 1),
    settleEveryMs: int(env, 'SETTLE_EVERY_MS', 1_000, 0),
    captchaPerIpPerMinute: int(env, 'CAPTCHA_PER_IP', 30, 1),
    staticDir: env['STATIC_DIR']?.trim() || undefined,
    customerService: env['CUSTOMER_SERVICE']?.trim() || undefined,
  };
}
