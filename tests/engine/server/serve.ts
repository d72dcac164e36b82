/**
 * A live-mode server for tests: ephemeral port, manual clock, no settle timer (tests settle explicitly),
 * PBKDF2 at 1,000 iterations, and a client speaking the wire contract through Fastify's app.inject (the
 * whole request path, hooks, schemas and plugins, without a socket); tests of what only a real connection
 * shows (sockets, CORS preflights, uploads, static files, timeouts of the body's arrival) fetch `url`.
 */
import {
  manualClock,
  type BodyOf,
  type ContractPath,
  type DataOf,
  type Envelope,
  type ManualClock,
  type StoreAdapter,
} from '../../../engine/index';
import { walletXpubFromSeed } from '../../../engine/chain/addresses';
import { startServer, type RunningServer, type StartOptions } from '../../../server/app';
import type { ChainGateway, ChainNetwork } from '../../../server/chain/gateway';
import { configFromEnv, type ServerConfig } from '../../../server/config';
import { registration } from '../harness';

export const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

/** The live servers' deposit key in tests: the account xpub of a fixed test wallet seed. */
export const TEST_XPUB = walletXpubFromSeed(new Uint8Array(64).fill(7));

/**
 * The server's calls, typed as the engine harness's are (tests/engine/harness.ts): a contract path takes its
 * body and answers its data; `callRaw`/`getRaw` send anything (a refused body, a path outside the contract).
 */
export interface TestServer extends RunningServer {
  clock: ManualClock;
  call<P extends ContractPath>(path: P, body?: BodyOf<P>, session?: Session): Promise<Envelope<DataOf<P>>>;
  callRaw(path: string, body?: unknown, session?: Session): Promise<Envelope>;
  get<P extends ContractPath>(path: P, session?: Session): Promise<Envelope<DataOf<P>>>;
  getRaw(path: string, session?: Session): Promise<Envelope>;
}

export type { Envelope };

export interface Session {
  id: string;
  token: string;
  headers: Record<string, string>;
}

export async function startTestServer(
  options: {
    storage?: StoreAdapter | 'memory';
    clock?: ManualClock;
    config?: Partial<ServerConfig>;
    pingEveryMs?: number;
    /** Engine constants over the server's (bench: transfer limits lifted). */
    engineConfig?: Record<string, unknown>;
    /** Chain gateways for operator-approved withdrawals (server/admin). */
    gateways?: Partial<Record<ChainNetwork, ChainGateway>>;
    /** Wraps the server's hash pool (a test watching each hash). */
    wrapHasher?: StartOptions['wrapHasher'];
    /** The live engine's market (a venue-named source); none by default, as a live server without MARKET_VENUES. */
    market?: StartOptions['market'];
    /** The market-data gateway's venues (config.market set): ccxt exchanges replayed from fixtures. */
    marketExchange?: StartOptions['marketExchange'];
  } = {},
): Promise<TestServer> {
  const clock = options.clock ?? manualClock(T0);
  const config: ServerConfig = {
    ...configFromEnv({}),
    port: 0,
    settleEveryMs: 0,
    // No collections in the middle of a test (tests/engine/server/start.test.ts checks them).
    idleGcMs: 0,
    pbkdf2Iterations: 1_000,
    walletXpub: TEST_XPUB,
    // Test servers run side by side: /metrics only where a test asks for it (METRICS_PORT 0: any free port).
    metricsPort: null,
    ...options.config,
  };
  const server = await startServer({
    config,
    clock,
    storage: options.storage ?? 'memory',
    pingEveryMs: options.pingEveryMs,
    engineConfig: options.engineConfig,
    gateways: options.gateways,
    wrapHasher: options.wrapHasher,
    market: options.market,
    marketExchange: options.marketExchange,
  });
  const request = async (method: 'GET' | 'POST', path: string, body?: unknown, session?: Session) => {
    const response = await server.app.inject({
      method,
      url: path,
      headers: { 'content-type': 'application/json', ...session?.headers },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return response.json<Envelope>();
  };
  const callRaw: TestServer['callRaw'] = (path, body, session) => request('POST', path, body ?? {}, session);
  const getRaw: TestServer['getRaw'] = (path, session) => request('GET', path, undefined, session);
  // The server answers a contract path with that path's envelope (the engine's handlers are typed so).
  return {
    ...server,
    clock,
    call: callRaw as TestServer['call'],
    callRaw,
    get: getRaw as TestServer['get'],
    getRaw,
  };
}

/** Live mode hides the captcha's code; a test reads it from storage, as the member reads the image. */
async function captcha(s: TestServer): Promise<{ verify: string; verifyKey: string }> {
  const { key } = (await s.get('/index/index/verify')).data;
  const rows = (await s.engine.diagnostics.snapshot())['captchas'] as Array<{ id: string; code: string }>;
  const row = rows.find((r) => r.id === key);
  if (!row) throw new Error('captcha not stored');
  return { verify: row.code, verifyKey: key };
}

export async function register(s: TestServer, username: string) {
  return s.call('/api/index/register', { ...registration(username), ...(await captcha(s)) });
}

export async function login(s: TestServer, username: string, password = 'secret1'): Promise<Session> {
  const r = await s.call('/api/index/login', { username, password });
  if (r.code !== 0) throw new Error(`login ${username}: ${r.code} ${r.msg}`);
  const user = JSON.parse(r.data) as { id: string | number; token: string };
  return {
    id: String(user.id),
    token: user.token,
    headers: { Authorization: user.token, UserId: String(user.id) },
  };
}

export async function signUp(s: TestServer, username: string): Promise<Session> {
  const r = await register(s, username);
  if (r.code !== 0) throw new Error(`register ${username}: ${r.code} ${r.msg}`);
  return login(s, username);
}

/**
 * A manual deposit, credited by an operator (engine/operations.ts): live mode has no simulated reviewer, so
 * a submission alone never turns into money.
 */
export async function deposit(s: TestServer, session: Session, amount: string, nonce: number): Promise<void> {
  const txid = nonce.toString(16).padStart(64, '0');
  const r = await s.call('/api/recharge/submit', { network: 'TRC20', amount, txid }, session);
  if (r.code !== 0) throw new Error(`deposit: ${r.code} ${r.msg}`);
  if (!(await s.engine.operations.creditDeposit(r.data.id))) {
    throw new Error('deposit: not credited');
  }
  s.clock.advance(61_000);
  await s.engine.settle();
}
