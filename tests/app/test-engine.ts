/**
 * Component tests of the account screens run against a real in-memory engine: test files replace the app's
 * demo transport with this one (vi.mock of src/api/transport-worker and src/api/engine-transport), so every
 * call still goes through the one API client. Cheap PBKDF2 and seeded secrets keep it fast and repeatable.
 */
import {
  createEngine,
  isAccountMessage,
  manualClock,
  type BodyOf,
  type ContractPath,
  type DataOf,
  type Engine,
  type EngineRequest,
  type FeedMessage,
} from '../../engine/index';
import type { TransportRequest } from '../../src/api/transport';
import { harnessCalls } from '../engine/harness';

export const testClock = manualClock(Date.UTC(2026, 0, 5, 8));
let engine: Promise<Engine> | undefined;
/** Paths of every call the app made, in order (to assert that invalid forms send nothing). */
export const sentPaths: string[] = [];

export function testEngine(): Promise<Engine> {
  engine ??= createEngine({
    storage: 'memory',
    seed: 11,
    clock: testClock,
    config: { pbkdf2Iterations: 1_000, secrets: 'seeded' },
  });
  return engine;
}

export async function handle(request: EngineRequest) {
  const instance = await testEngine();
  await instance.settle();
  return instance.handle(request);
}

/**
 * A test transport's feed in the demo worker's two forms: `subscribe` (one message at a time) and
 * `subscribeBatches` (the worker sends batches; here each message is its own batch).
 */
export function feedOf(subscribe: (listener: (message: FeedMessage) => void) => () => void) {
  return {
    subscribe,
    subscribeBatches: (listener: (messages: readonly FeedMessage[]) => void) =>
      subscribe((message) => listener([message])),
  };
}

function transport() {
  return {
    async request({ signal: _signal, ...request }: TransportRequest) {
      sentPaths.push(request.path);
      return handle(request);
    },
    // The engine's account events (a withdrawal's verdict...), as the demo worker relays them. Market
    // ticks are left out: the screens' tests drive quotes themselves.
    ...feedOf((listener) => {
      let stop: (() => void) | undefined;
      let closed = false;
      void testEngine().then((instance) => {
        if (closed) return;
        stop = instance.subscribe((message) => {
          if (isAccountMessage(message)) listener(message);
        });
      });
      return () => {
        closed = true;
        stop?.();
      };
    }),
    demo: {
      advance: async (ms: number) => {
        testClock.advance(ms);
        await (await testEngine()).settle();
        return testClock.now();
      },
      reset: async () => {
        engine = undefined;
      },
      now: async () => testClock.now(),
      clock: () => testClock.now(),
    },
    close: () => undefined,
  };
}

/** Module replacements for vi.mock. */
// A test file's vi.mock of src/api/transport-worker or src/api/engine-transport returns this module.
export { transport as createDemoWorkerTransport, transport as createWorkerTransport };
export { transport as createEngineTransport };

const calls = harnessCalls(handle);

/** A contract call straight to the engine (not through the screens under test): its data, or a throw. */
async function call<P extends ContractPath>(
  path: P,
  body: BodyOf<P>,
  auth?: { id: string; token: string },
): Promise<DataOf<P>> {
  const headers: Record<string, string> = auth ? { Authorization: auth.token, UserId: auth.id } : {};
  const session = { headers };
  const res =
    path === '/index/index/verify' ? await calls.get(path, session) : await calls.call(path, body, session);
  if (res.code !== 0 && res.code !== 200) throw new Error(`${path}: ${res.code} ${res.msg}`);
  return res.data;
}

export interface SeededMember {
  id: string;
  token: string;
  username: string;
  vip: string;
  balance: string;
}

export const SECRETS = { password: 'secret1', key: '1234', question: 'First pet?', answer: 'Rex' };

/** Registers and logs in a member straight through the engine (not the screens under test). */
export async function seedMember(username: string, invite?: string): Promise<SeededMember> {
  const captcha = await call('/index/index/verify', undefined);
  if (captcha.code === undefined) throw new Error('captcha: no code (live mode hides it)');
  await call('/api/index/register', {
    username,
    password: SECRETS.password,
    repassword: SECRETS.password,
    key: SECRETS.key,
    rekey: SECRETS.key,
    email: `${username}@example.test`,
    verify: captcha.code,
    verifyKey: captcha.key,
    question: SECRETS.question,
    answer: SECRETS.answer,
    ...(invite ? { invite } : {}),
  });
  const raw = await call('/api/index/login', { username, password: SECRETS.password });
  const user = JSON.parse(raw) as { id: string | number; token: string; vip: string; balance: string };
  return { id: String(user.id), token: user.token, username, vip: user.vip, balance: user.balance };
}

export { call as engineCall };
