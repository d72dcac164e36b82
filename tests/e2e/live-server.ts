/**
 * The reference server for end-to-end tests of live mode (issue 10): the app built with VITE_API_MODE=live
 * into dist-live/ and served by `server/` itself (STATIC_DIR), in demo mode (so the site says "Demo" and the
 * captcha shows its code), on PostgreSQL in a fresh schema when DATABASE_URL is set, else on PGlite in a
 * temporary directory. `restart()` stops the server and starts it again on the same port and database, as a
 * deploy or a crash would.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ManualClock, StoreAdapter } from '../../engine/index';
import { SqlStore } from '../../server/sql-store';
import { pgliteDriver, postgresDriver } from '../../server/sql-driver';
import { login, register, startTestServer, type Session, type TestServer } from '../engine/server/serve';
import { dropSchema, freshSchema } from '../engine/server/sql';

const root = resolve(import.meta.dirname, '../..');
export const LIVE_DIST = join(root, 'dist-live');

/**
 * Builds the live app once per run: when dist-live/ is missing or older than dist/ (which `npm run test:e2e`
 * has just built from the same sources).
 */
export function buildLiveApp(): void {
  const built = join(LIVE_DIST, 'index.html');
  const demo = join(root, 'dist', 'index.html');
  if (existsSync(built) && (!existsSync(demo) || statSync(built).mtimeMs >= statSync(demo).mtimeMs)) return;
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', LIVE_DIST],
    {
      cwd: root,
      // Vitest sets NODE_ENV=test, which would give a development build (no service worker, React's dev build).
      env: { ...process.env, NODE_ENV: 'production', VITE_API_MODE: 'live' },
      stdio: 'pipe',
    },
  );
}

/** The wall clock, in the shape the test server's helpers expect (nothing here moves time by hand). */
const wallClock = {
  now: () => Date.now(),
  advance: () => {
    throw new Error('the live end-to-end server runs on the wall clock');
  },
} as unknown as ManualClock;

export interface LiveServer {
  readonly url: string;
  server(): TestServer;
  /** The server's database (operators are created in it, as the CLI does). */
  store(): SqlStore;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** `engineConfig`: engine constants over the server's (the console test keeps the demo reviewer away). */
export async function startLiveServer(engineConfig: Record<string, unknown> = {}): Promise<LiveServer> {
  const url = process.env['DATABASE_URL'];
  const schema = freshSchema();
  const dataDir = url ? null : mkdtempSync(join(tmpdir(), 'strata-live-e2e-'));
  let store: SqlStore | undefined;
  const storage = async (): Promise<StoreAdapter> => {
    store = url
      ? await SqlStore.open(await postgresDriver(url), { schema })
      : await SqlStore.open(await pgliteDriver(String(dataDir)), { schema });
    return store;
  };
  const start = async (port: number) =>
    startTestServer({
      storage: await storage(),
      clock: wallClock,
      config: { demo: true, staticDir: LIVE_DIST, port, settleEveryMs: 1_000 },
      engineConfig,
    });
  let current = await start(0);
  const origin = current.url.replace('localhost', '127.0.0.1');
  return {
    url: origin,
    server: () => current,
    store: () => {
      if (!store) throw new Error('the live server has no store yet');
      return store;
    },
    async restart() {
      const port = current.port;
      await current.close();
      current = await start(port);
    },
    async close() {
      await current.close();
      if (url) await dropSchema(schema);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A member registered over HTTP, paid in by an operator's credit, with VIP1 (transfers need it). */
export async function fundedMember(live: LiveServer, username: string, amount: string): Promise<Session> {
  const s = live.server();
  const registered = await register(s, username);
  if (registered.code !== 0) throw new Error(`register ${username}: ${registered.code} ${registered.msg}`);
  const session = await login(s, username);
  const txid = crypto.randomUUID().replaceAll('-', '').padEnd(64, '0');
  const submitted = await s.call('/api/recharge/submit', { network: 'TRC20', amount, txid }, session);
  if (submitted.code !== 0) throw new Error(`deposit: ${submitted.code} ${submitted.msg}`);
  if (!(await s.engine.operations.creditDeposit(submitted.data.id))) throw new Error('deposit not credited');
  const vip = await s.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, session);
  if (vip.code !== 0) throw new Error(`VIP: ${vip.code} ${vip.msg}`);
  return session;
}

/** What the server says a member has (getuser's `available`), read over HTTP, never from the page. */
export async function serverAvailable(live: LiveServer, username: string): Promise<string> {
  const session = await login(live.server(), username);
  const answer = await live.server().call('/api/user/getuser', undefined, session);
  return answer.data.available;
}
