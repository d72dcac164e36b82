/**
 * Test harness: a real engine (every domain of engine/routes.ts) plus a test-only faucet domain that
 * credits a member from `world:TEST`, so ledger tests do not depend on the simulated chains.
 */
import { z } from 'zod';
import { assembleEngine } from '../../engine/engine';
import { manualClock, type Engine, type ManualClock, type StoreAdapter } from '../../engine/index';
import type {
  BodyOf,
  ContractPath,
  DataOf,
  EngineRequest,
  Envelope,
  MemberProfile,
  RegisterBody,
} from '../../engine/contract';
import { acct } from '../../engine/ledger/accounts';
import { handler } from '../../engine/router';
import { domains, type Domain } from '../../engine/routes';
import type { Hasher } from '../../engine/security/hashing';
import { amount, body } from '../../engine/schema';

export const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

/** /test/faucet: credits a member out of thin air (the TEST world account), for test set-ups. */
export const faucetHandler = handler({
  auth: false,
  body: body({ memberId: z.string(), amount }),
  run: async (ctx, input) => {
    await ctx.ledger.move(acct.world('TEST'), acct.user(input.memberId), input.amount, {
      kind: 'test.faucet',
      ref: `faucet:${input.memberId}`,
    });
    return null;
  },
});

const faucet: Domain = { name: 'test-faucet', handlers: { '/test/faucet': faucetHandler } };

export interface Session {
  id: string;
  token: string;
  headers: Record<string, string>;
}

/**
 * The test engine's calls, typed as the app's client is (src/api/client.ts): a contract path takes its body
 * and answers its data (ContractMap). `callRaw` sends anything (a malformed body, a path outside the contract,
 * the test faucet) and answers `unknown` data: tests of refused input say so by using it.
 */
export interface Harness {
  engine: Engine;
  clock: ManualClock;
  call<P extends ContractPath>(path: P, body?: BodyOf<P>, session?: Caller): Promise<Envelope<DataOf<P>>>;
  callRaw(path: string, body?: unknown, session?: Caller): Promise<Envelope>;
  get<P extends ContractPath>(path: P, session?: Caller): Promise<Envelope<DataOf<P>>>;
  /** A GET outside the contract (an upload's URL); its data is unknown. */
  getRaw(path: string, session?: Caller): Promise<Envelope>;
}

/** Who calls: a session's headers, or a device's headers before any session (a login). */
export type Caller = Pick<Session, 'headers'>;

/**
 * Fixed "random" bytes for the demo deposit key, so two harnesses with one seed reach the same state hash.
 * Only tests do this: a real engine draws its demo key from crypto.getRandomValues.
 */
export function fixedEntropy(seed: number): (bytes: number) => Uint8Array {
  return (bytes) => Uint8Array.from({ length: bytes }, (_, i) => (seed * 31 + i * 7) & 0xff);
}

type Handle = (request: EngineRequest) => Promise<{ body: Envelope }>;

/** call, callRaw, get and getRaw over an engine (or anything answering its requests, such as an HTTP transport). */
export function harnessCalls(
  engine: { handle: Handle } | Handle,
): Pick<Harness, 'call' | 'callRaw' | 'get' | 'getRaw'> {
  const handle: Handle = typeof engine === 'function' ? engine : (request) => engine.handle(request);
  const callRaw: Harness['callRaw'] = async (path, b, session) =>
    (await handle({ method: 'POST', path, headers: session?.headers ?? {}, body: b })).body;
  const getRaw: Harness['getRaw'] = async (path, session) =>
    (await handle({ method: 'GET', path, headers: session?.headers ?? {} })).body;
  // The engine's answer to a contract path is that path's envelope (engine/router.ts types its handlers so).
  return { call: callRaw as Harness['call'], callRaw, get: getRaw as Harness['get'], getRaw };
}

export async function harness(
  options: {
    config?: Record<string, unknown>;
    storage?: string | StoreAdapter;
    seed?: number;
    start?: number;
    hasher?: Hasher;
  } = {},
): Promise<Harness> {
  const clock = manualClock(options.start ?? T0);
  const engine = await assembleEngine(
    {
      clock,
      seed: options.seed ?? 7,
      storage: options.storage ?? 'memory',
      entropy: fixedEntropy(options.seed ?? 7),
      hasher: options.hasher,
      config: { pbkdf2Iterations: 1_000, secrets: 'seeded', ...options.config },
    },
    [...domains, faucet],
  );
  return { engine, clock, ...harnessCalls(engine) };
}

/** The captcha's answer, read from its demo-mode `code`. */
export async function captcha(h: Harness): Promise<{ verify: string; verifyKey: string }> {
  const { key, code } = (await h.get('/index/index/verify')).data;
  if (code === undefined) throw new Error('captcha: no code (live mode hides it)');
  return { verify: code, verifyKey: key };
}

/** A valid registration form for `username` but its captcha; `extra` changes any field. */
export function registration(
  username: string,
  extra: Partial<RegisterBody> = {},
): Omit<RegisterBody, 'verify' | 'verifyKey'> {
  return {
    username,
    password: 'secret1',
    repassword: 'secret1',
    key: 'key1',
    rekey: 'key1',
    email: `${username.toLowerCase()}@example.com`,
    question: 'First pet?',
    answer: 'Rex',
    ...extra,
  };
}

export async function register(h: Harness, username: string, extra: Partial<RegisterBody> = {}) {
  return h.call('/api/index/register', { ...registration(username, extra), ...(await captcha(h)) });
}

export async function login(h: Harness, username: string, password = 'secret1'): Promise<Session> {
  const r = await h.call('/api/index/login', { username, password });
  if (r.code !== 0) throw new Error(`login ${username}: ${r.code} ${r.msg}`);
  const user = JSON.parse(r.data) as { id: string; token: string };
  return {
    id: String(user.id),
    token: user.token,
    headers: { Authorization: user.token, UserId: String(user.id) },
  };
}

export async function signUp(
  h: Harness,
  username: string,
  extra: Partial<RegisterBody> = {},
): Promise<Session> {
  const r = await register(h, username, extra);
  if (r.code !== 0) throw new Error(`register ${username}: ${r.code} ${r.msg}`);
  return login(h, username);
}

export async function fund(h: Harness, memberId: string, amount: string): Promise<void> {
  // The test faucet is no contract path: the harness adds it.
  const r = await h.callRaw('/test/faucet', { memberId, amount });
  if (r.code !== 0) throw new Error(`faucet: ${r.code} ${r.msg}`);
}

export async function user(h: Harness, s: Session): Promise<MemberProfile> {
  return { ...(await h.call('/api/user/getuser', undefined, s)).data };
}
