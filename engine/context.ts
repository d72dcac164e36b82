/**
 * What a handler, job or hook receives: one unit of work (`tx`) and everything bound to it. All writes
 * through ctx (store, ledger, ids, jobs, secrets' counters) commit together or not at all; `emit`ted feed
 * messages are delivered only after the commit.
 */
import type { MemberRow } from './accounts/tables';
import type { EngineConfig } from './config';
import type { Counterparties } from './counterparties';
import type { EngineFeedMessage } from './feed';
import type { Ids } from './ids';
import type { Jobs } from './jobs';
import type { Ledger } from './ledger/ledger';
import type { Random } from './random';
import type { Nested } from './runtime';
import type { Hashing } from './security/hashing';
import type { Secrets } from './security/secrets';
import type { Tx } from './store/tx';

export interface Ctx {
  /** Clock time of this unit of work in ms (a job runs as of its due time). */
  readonly now: number;
  /** The same time in wire form: 10-digit Unix seconds. */
  readonly nowSec: number;
  /**
   * Real time, for what is checked against a clock outside the simulation: authenticator codes (RFC 6238).
   * Equal to `now` except in the demo after a fast-forward, whose simulated clock runs ahead of the
   * member's phone.
   */
  readonly wallNow: number;
  readonly tx: Tx;
  readonly config: EngineConfig;
  /** Simulated or real reviewers, payment provider and chains, resolved once from config.demo. */
  readonly counterparties: Counterparties;
  readonly seed: number;
  /** The engine's root stream: always `fork('<your domain>')` rather than drawing from it directly. */
  readonly random: Random;
  readonly ids: Ids;
  readonly ledger: Ledger;
  readonly jobs: Jobs;
  readonly secrets: Secrets;
  /**
   * Key material that must never derive from the seed (the demo deposit key): crypto.getRandomValues
   * unless the engine's owner injects another source (tests, for reproducible state hashes).
   */
  readonly entropy: (bytes: number) => Uint8Array;
  /**
   * Password, key and answer hashing (PBKDF2 through the engine's injected Hasher). In any unit (a call, a
   * push's mutation, a job), a hash not yet computed leaves the unit (a nested one: the enclosing one) and
   * runs outside it, then the unit runs again (security/hashing.ts).
   */
  readonly hashing: Hashing;
  /** Request headers with lower-cased names (empty for jobs). */
  readonly headers: Readonly<Record<string, string>>;
  /** Queues a feed message, delivered after commit. Balance changes are announced automatically. */
  emit(message: EngineFeedMessage): void;
  /**
   * Registers work that must persist even though this call fails (a wrong-key counter, a consumed
   * captcha). It runs after the rollback, in a fresh unit of work of its own.
   */
  onFailure(run: (ctx: Ctx) => Promise<void>): void;
  /** Nested units of work in this call's serial slot (engine/sync's push); set by the runtime. */
  readonly nested?: Nested;
}

/** The context of a handler declared with `auth: true`: the session resolved to its member. */
export interface AuthCtx extends Ctx {
  readonly member: MemberRow;
  readonly sessionId: string;
}

export function toSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
