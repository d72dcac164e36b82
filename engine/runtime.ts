/**
 * The runtime: units of work. On memory and Dexie storage every call, job and hook runs alone in a serial
 * queue (mutating handlers are serialised, so there are no lost updates); on an adapter with transactions
 * (the server's SQL store) calls run concurrently, each unit in its own REPEATABLE READ transaction, re-run on
 * a conflict. Either way a unit is committed in one adapter commit or dropped whole; feed messages go out
 * only after the commit.
 */
import type { Ctx } from './context';
import type { EngineConfig } from './config';
import { resolveCounterparties, type Counterparties } from './counterparties';
import { EngineError, Codes } from './errors';
import { Feed, type EngineFeedMessage } from './feed';
import { Ids } from './ids';
import {
  deadJobsTable,
  hookState,
  Jobs,
  jobsTable,
  dueQueue,
  periodBoundary,
  type JobRow,
  type JobRunner,
  type PeriodicHook,
} from './jobs';
import { Ledger } from './ledger/ledger';
import type { Random } from './random';
import { authorise, parseBody, resolve } from './pipeline';
import { normaliseHeaders, Reply, Router, type AnyHandler } from './router';
import type { Domain } from './routes';
import { Hashing, HashNeeded, webCryptoHasher, type Hasher } from './security/hashing';
import { createSecrets, cryptoEntropy } from './security/secrets';
import { isStorageUnavailable, type StoreAdapter } from './store/port';
import { savepointOf, Tx } from './store/tx';
import type { EngineRequest, EngineResponse, Envelope } from './contract';

export interface Clock {
  now(): number;
  /**
   * The real time on the member's own devices (an authenticator app's clock), which the demo's fast-forward
   * does not move; `now()` when absent (the server, tests with a manual clock).
   */
  wall?(): number;
}

type FailureWork = (ctx: Ctx) => Promise<void>;

interface UnitState {
  events: EngineFeedMessage[];
  failures: FailureWork[];
  ledger: Ledger;
  jobs: Jobs;
}

/**
 * What engine/sync's push needs from the runtime (ctx.nested): the route table, and nested units of work, so
 * each replayed mutation succeeds or rolls back on its own and the batch commits once.
 */
export interface Nested {
  /** The POST handler of a contract path, or undefined. */
  handler(path: string): AnyHandler | undefined;
  /**
   * Runs `fn` as a unit of work nested in this one, at its time: all-or-nothing on its own (own rollback
   * and onFailure work), committed with the enclosing unit.
   */
  unit<T>(fn: (ctx: Ctx) => Promise<T>): Promise<T>;
}

const MAX_SETTLE_STEPS = 1_000_000;

export class Runtime {
  readonly feed = new Feed();
  readonly router: Router;
  private queue: Promise<unknown> = Promise.resolve();
  /** Bumped whenever a committed unit scheduled jobs, so settle rescans the jobs table only then. */
  private jobsVersion = 0;
  private readonly runners = new Map<string, JobRunner>();
  private readonly hooks: PeriodicHook[] = [];
  private readonly commitHooks: Array<(ctx: Ctx) => Promise<void>> = [];

  constructor(
    readonly store: StoreAdapter,
    readonly config: EngineConfig,
    readonly clock: Clock,
    readonly seed: number,
    readonly random: Random,
    private readonly domains: readonly Domain[],
    readonly counterparties: Counterparties = resolveCounterparties(config, { seed }),
    private readonly entropy: (bytes: number) => Uint8Array = cryptoEntropy,
    readonly hasher: Hasher = webCryptoHasher,
  ) {
    this.router = new Router(domains.map((d) => d.handlers ?? {}));
    for (const domain of domains) {
      for (const [kind, runner] of Object.entries(domain.jobs ?? {})) {
        if (this.runners.has(kind)) throw new Error(`Duplicate job kind ${kind}`);
        this.runners.set(kind, runner);
      }
      this.hooks.push(...(domain.periodic ?? []));
      if (domain.beforeCommit) this.commitHooks.push(domain.beforeCommit);
    }
  }

  /** Runs `fn` after everything queued before it, whatever their outcome. */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A unit of work's context, bound to `tx`; events, failure work and ledger/jobs state land in `state`. */
  private context(
    tx: Tx,
    now: number,
    headers: Record<string, string>,
    hashing: Hashing,
  ): { ctx: Ctx; state: UnitState } {
    const ids = new Ids(tx);
    const state: UnitState = {
      events: [],
      failures: [],
      ledger: new Ledger(tx, ids, now),
      jobs: new Jobs(tx, ids),
    };
    const ctx: Ctx = {
      now,
      nowSec: Math.floor(now / 1000),
      wallNow: this.clock.wall?.() ?? now,
      tx,
      config: this.config,
      counterparties: this.counterparties,
      seed: this.seed,
      random: this.random,
      ids,
      ledger: state.ledger,
      jobs: state.jobs,
      secrets: createSecrets(this.config.secrets, this.seed, ids),
      entropy: this.entropy,
      hashing,
      headers,
      emit: (message) => {
        state.events.push(message);
      },
      onFailure: (work) => {
        state.failures.push(work);
      },
      nested: {
        handler: (path) => {
          const resolved = resolve(this.router, 'POST', path);
          return resolved.ok ? resolved.handler : undefined;
        },
        // The same Hashing as the enclosing unit: a hash a nested unit needs leaves the whole call.
        unit: (work) => this.savepoint(tx, state, now, headers, hashing, work),
      },
    };
    return { ctx, state };
  }

  /**
   * One unit of work at time `now`. Commits on success, rolls back on error (then runs onFailure work).
   * On a concurrent adapter (SQL) the unit runs inside the adapter's transaction, which may run it again
   * from the start after a serialization conflict: only the attempt that committed publishes its events.
   * `hashing`: the one of this unit's caller (see outside()): a HashNeeded leaves the unit, rolled back,
   * without its onFailure work, for the caller to compute the hash and run the unit again.
   */
  async unit<T>(
    now: number,
    headers: Record<string, string>,
    fn: (ctx: Ctx) => Promise<T>,
    hashing: Hashing,
  ): Promise<T> {
    const last: { state?: UnitState } = {};
    const attempt = async (store: StoreAdapter): Promise<T> => {
      const tx = new Tx(store);
      hashing.attempt();
      const unit = this.context(tx, now, headers, hashing);
      last.state = unit.state;
      const result = await fn(unit.ctx);
      for (const hook of this.commitHooks) await hook(unit.ctx);
      await tx.commit();
      return result;
    };
    let result: T;
    try {
      result = this.store.transaction ? await this.store.transaction(attempt) : await attempt(this.store);
    } catch (error) {
      // A unit that left for a hash did not fail: it runs again once the hash is known.
      if (error instanceof HashNeeded) throw error;
      const failures = last.state?.failures ?? [];
      if (failures.length > 0) {
        try {
          await this.outside((again) =>
            this.unit(
              now,
              headers,
              async (after) => {
                for (const work of failures) await work(after);
              },
              again,
            ),
          );
        } catch {
          // The caller must still learn why its call failed, not that the bookkeeping after it did.
        }
      }
      throw error;
    }
    const committed = last.state;
    if (!committed) throw new Error('A unit of work committed without running');
    if (committed.jobs.scheduled > 0) this.jobsVersion++;
    const events = committed.events;
    for (const memberId of [...committed.ledger.touched].sort())
      events.push({ type: 'balance', data: { memberId } });
    this.feed.publish(events);
    return result;
  }

  /**
   * Runs a call's unit of work: in the serial queue on adapters without transactions (memory, Dexie), at
   * once on a concurrent adapter (SQL), whose transactions keep concurrent units apart.
   */
  private schedule<T>(fn: () => Promise<T>): Promise<T> {
    return this.store.transaction ? fn() : this.serial(fn);
  }

  /**
   * A unit of work nested in another (ctx.nested.unit): on success its writes, feed messages and touched
   * balances join the parent's, to commit with it; on error they vanish and its onFailure work runs in a
   * savepoint of its own. So a batch of nested units is one storage commit (engine/sync's push: one SQL or
   * IndexedDB transaction per 500 mutations) while each stays all-or-nothing.
   */
  private async savepoint<T>(
    parent: Tx,
    outer: UnitState,
    now: number,
    headers: Record<string, string>,
    hashing: Hashing,
    fn: (ctx: Ctx) => Promise<T>,
  ): Promise<T> {
    const tx = new Tx(savepointOf(parent));
    const { ctx, state } = this.context(tx, now, headers, hashing);
    let result: T;
    try {
      result = await fn(ctx);
    } catch (error) {
      // A hash this unit needs leaves the enclosing call's unit whole (rolled back, run again): no failure.
      if (error instanceof HashNeeded) throw error;
      if (state.failures.length > 0) {
        try {
          await this.savepoint(parent, outer, now, headers, hashing, async (after) => {
            for (const work of state.failures) await work(after);
          });
        } catch (failed) {
          if (failed instanceof HashNeeded) throw failed;
          // As in unit(): the failure itself is what the caller must learn.
        }
      }
      throw error;
    }
    tx.mergeInto(parent);
    outer.events.push(...state.events);
    for (const memberId of state.ledger.touched) outer.ledger.touched.add(memberId);
    outer.jobs.scheduled += state.jobs.scheduled;
    return result;
  }

  async handle(request: EngineRequest): Promise<EngineResponse> {
    try {
      const req: Partial<EngineRequest> = request && typeof request === 'object' ? request : {};
      const resolved = resolve(this.router, req.method, req.path);
      if (!resolved.ok) return envelope(resolved.code, resolved.msg, null);
      const { handler, params } = resolved;
      const parsed = parseBody(handler, req.body);
      if (!parsed.ok) return envelope(parsed.code, parsed.msg, null);
      const headers = normaliseHeaders(req.headers);
      const result = await this.outside((hashing) =>
        this.schedule(() =>
          this.unit(
            this.clock.now(),
            headers,
            async (ctx) => {
              // The handler's own reads travel with the session's (one round trip on SQL).
              const warm = handler.prefetch?.(ctx.tx, parsed.input, headers['userid']?.trim() ?? '');
              warm?.catch(() => undefined);
              const authorised = await authorise(handler, ctx);
              await warm;
              return handler.run(authorised, parsed.input, params);
            },
            hashing,
          ),
        ),
      );
      if (result instanceof Reply) return envelope(result.code, result.msg, result.data);
      return envelope(0, 'ok', result ?? null);
    } catch (error) {
      if (error instanceof EngineError) return envelope(error.code, error.message, error.data);
      if (isStorageUnavailable(error)) {
        return envelope(
          Codes.unavailable,
          'The service is briefly unavailable: try again in a moment (a retried payment is applied once)',
          null,
        );
      }
      if (isQuotaError(error)) {
        return envelope(
          Codes.storageFull,
          'Storage is full: nothing was saved. Free some space and try again',
          null,
        );
      }
      return envelope(Codes.serverError, 'Server exception', null);
    }
  }

  /**
   * Runs `attempt` (one unit of work, with whatever slot it takes: the serial queue, a transaction) until
   * it gets through without a hash it has not computed: each HashNeeded left the unit rolled back, and its
   * hash is computed here, outside any transaction, connection or serial-queue slot `attempt` took, then
   * `attempt` runs again from the start with the hash in the memo (engine/security/hashing.ts). So no unit
   * of work holds anything while a hash runs; after 8 rounds the hashes run inline (Hashing.compute).
   */
  private async outside<T>(attempt: (hashing: Hashing) => Promise<T>): Promise<T> {
    const hashing = new Hashing(this.hasher, this.config.pbkdf2Iterations, true);
    for (;;) {
      try {
        return await attempt(hashing);
      } catch (error) {
        if (!(error instanceof HashNeeded)) throw error;
        await hashing.compute(error);
      }
    }
  }

  /**
   * An internal call (engine/operations.ts): one unit of work at the clock's time, serialised; a hash it
   * needs is computed out of the queue (outside()).
   */
  operate<T>(fn: (ctx: Ctx) => Promise<T>): Promise<T> {
    return this.outside((hashing) => this.serial(() => this.unit(this.clock.now(), {}, fn, hashing)));
  }

  /** Domain init hooks and periodic-hook clocks, once per engine open. */
  async init(): Promise<void> {
    await this.operate(async (ctx) => {
      for (const domain of this.domains) await domain.init?.(ctx);
      for (const hook of this.hooks) {
        if (!(await ctx.tx.get(hookState, hook.name))) {
          ctx.tx.put(hookState, { id: hook.name, lastRun: periodBoundary(ctx.now, hook.intervalMs) });
        }
      }
    });
  }

  /**
   * An internal unit of work at time `now`: settle's (a job, a periodic hook; tests call it too). A hash it
   * needs is computed outside its transaction, but settle keeps its place in the serial queue meanwhile:
   * settle runs alone by design (memory and Dexie calls wait for it anyway; the server's SQL calls do not
   * queue).
   */
  unitAt<T>(now: number, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
    return this.outside((hashing) => this.unit(now, {}, fn, hashing));
  }

  settle(): Promise<void> {
    return this.serial(async () => {
      let due: JobRow[] = [];
      let seen = -1;
      for (let step = 0; step < MAX_SETTLE_STEPS; step++) {
        const now = this.clock.now();
        if (seen !== this.jobsVersion) {
          seen = this.jobsVersion;
          const rows = this.store.due
            ? await this.store.due(jobsTable.name, now)
            : await this.store.scan(jobsTable.name);
          due = dueQueue(rows as JobRow[], now);
        }
        const next = due.at(-1);
        let hooksRan = false;
        for (const hook of this.hooks)
          hooksRan = (await this.runHook(hook, next ? next.dueAt : now)) || hooksRan;
        if (hooksRan) continue;
        if (!next) return;
        due.pop();
        // A job cancelled by an earlier job is gone from the table but may still be in the queue.
        if (await this.store.get(jobsTable.name, next.id)) await this.runJob(next, now);
      }
    });
  }

  private async runHook(hook: PeriodicHook, horizon: number): Promise<boolean> {
    const to = periodBoundary(horizon, hook.intervalMs);
    const state = (await this.store.get(hookState.name, hook.name)) as { lastRun: number } | undefined;
    if (!state) {
      await this.unitAt(to, async (ctx) => void ctx.tx.put(hookState, { id: hook.name, lastRun: to }));
      return false;
    }
    if (to <= state.lastRun) return false;
    const window = { from: state.lastRun, to };
    // Another settler (a second server instance on the same database) may have run this window since the
    // read above: the unit re-reads the hook's clock and does nothing when it has moved.
    const stillDue = async (ctx: Ctx) => {
      const now = await ctx.tx.get(hookState, hook.name);
      return !now || now.lastRun === state.lastRun;
    };
    try {
      await this.unitAt(to, async (ctx) => {
        if (!(await stillDue(ctx))) return;
        ctx.tx.put(hookState, { id: hook.name, lastRun: to });
        await hook.run(ctx, window);
      });
    } catch (error) {
      // A failing hook must not stall settle forever: record it and move its clock on.
      await this.unitAt(to, async (ctx) => {
        if (!(await stillDue(ctx))) return;
        ctx.tx.put(hookState, { id: hook.name, lastRun: to });
        const id = await ctx.ids.next('deadJob');
        ctx.tx.put(deadJobsTable, {
          id,
          kind: `hook:${hook.name}`,
          dueAt: to,
          payload: window,
          failedAt: to,
          error: String(error),
        });
      });
    }
    return true;
  }

  private async runJob(job: JobRow, now: number): Promise<void> {
    const runner = this.runners.get(job.kind);
    try {
      if (!runner) throw new Error(`No runner for job kind ${job.kind}`);
      // The job row is claimed inside the unit: a job another settler (or a cancelling call) removed since
      // the scan is skipped, and on SQL two claims of one row cannot both commit.
      await this.unitAt(job.dueAt, async (ctx) => {
        if (!(await ctx.tx.get(jobsTable, job.id))) return;
        ctx.tx.delete(jobsTable, job.id);
        await runner(ctx, job.payload, job);
      });
    } catch (error) {
      await this.unitAt(job.dueAt, async (ctx) => {
        if (!(await ctx.tx.get(jobsTable, job.id))) return;
        ctx.tx.delete(jobsTable, job.id);
        ctx.tx.put(deadJobsTable, { ...job, failedAt: now, error: String(error) });
      });
    }
  }
}

function envelope(code: number, msg: string, data: unknown): EngineResponse {
  const body: Envelope = { code, msg, data };
  return { status: 200, body };
}

/**
 * A full disk while committing (IndexedDB's QuotaExceededError, possibly wrapped by Dexie as `inner` or
 * `cause`). The unit of work was not written, so the member only needs to free space and retry.
 */
function isQuotaError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { name, inner, cause } = error as { name?: unknown; inner?: unknown; cause?: unknown };
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
  return isQuotaError(inner, depth + 1) || isQuotaError(cause, depth + 1);
}
