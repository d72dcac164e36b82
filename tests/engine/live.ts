/**
 * A live-mode engine for tests (demo false: no simulated reviewer, payments or chain; `demo: true` for the
 * comparison), with a manual clock, and members signed up the way a live server's members are (the captcha's code read from storage, as the
 * member reads the image).
 */
import {
  createEngine,
  manualClock,
  type Engine,
  type ManualClock,
  type MarketSource,
  type PaymentProvider,
} from '../../engine/index';
import { harnessCalls, registration, type Harness } from './harness';

/** A live engine and its calls, typed as the engine harness's are (tests/engine/harness.ts). */
export interface LiveEngine extends Pick<Harness, 'call' | 'callRaw' | 'get' | 'getRaw'> {
  engine: Engine;
  clock: ManualClock;
}

export interface LiveSession {
  id: string;
  headers: Record<string, string>;
}

export async function openLive(
  seed = 3,
  options: {
    demo?: boolean;
    payments?: PaymentProvider;
    market?: MarketSource;
    /** Engine constants over the defaults (a narrower price band). */
    config?: Record<string, unknown>;
  } = {},
): Promise<LiveEngine> {
  const clock = manualClock(Date.UTC(2026, 0, 5, 8));
  const engine = await createEngine({
    clock,
    seed,
    storage: 'memory',
    config: { ...options.config, demo: options.demo ?? false, pbkdf2Iterations: 1_000, secrets: 'seeded' },
    payments: options.payments,
    market: options.market,
  });
  return { engine, clock, ...harnessCalls(engine) };
}

export async function liveMember(l: LiveEngine, username: string): Promise<LiveSession> {
  const { key } = (await l.get('/index/index/verify')).data;
  const rows = (await l.engine.diagnostics.snapshot())['captchas'] as Array<{ id: string; code: string }>;
  const verify = rows.find((r) => r.id === key)?.code;
  if (verify === undefined) throw new Error('captcha not stored');
  const reg = await l.call('/api/index/register', { ...registration(username), verify, verifyKey: key });
  if (reg.code !== 0) throw new Error(`register ${username}: ${reg.code} ${reg.msg}`);
  const r = await l.call('/api/index/login', { username, password: 'secret1' });
  const user = JSON.parse(r.data) as { id: string; token: string };
  return { id: String(user.id), headers: { Authorization: user.token, UserId: String(user.id) } };
}
