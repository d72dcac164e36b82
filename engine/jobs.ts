/**
 * Persisted scheduled jobs and periodic hooks.
 *
 * A job `{ kind, dueAt, payload }` is written through the unit of work (so scheduling rolls back with a
 * failed call) and run by `Engine.settle()` once `clock.now() >= dueAt`, in (dueAt, id) order, each in its
 * own unit of work with `ctx.now = dueAt`: a job runs "as of" its due time, so catching up after a long gap
 * gives the same records as running on time.
 *
 * A periodic hook is called with a window `{ from, to }` of whole periods (multiples of `intervalMs` since
 * the epoch) that elapsed since its last run. It must compute what is due in the window itself (blocks,
 * daily accruals), so a 40-day gap is ONE call, not a million ticks. Windows are cut at each due job, so
 * hooks and jobs interleave in time order.
 */
import type { Ctx } from './context';
import { defineTable } from './store/port';
import type { Tx } from './store/tx';
import type { Ids } from './ids';

export interface JobRow {
  id: string;
  kind: string;
  dueAt: number;
  payload: unknown;
}

export interface DeadJobRow extends JobRow {
  failedAt: number;
  error: string;
}

export interface HookStateRow {
  id: string;
  lastRun: number;
}

export const jobsTable = defineTable<JobRow>('jobs', { kind: (j) => j.kind });
export const deadJobsTable = defineTable<DeadJobRow>('deadJobs');
export const hookState = defineTable<HookStateRow>('hookState');

export type JobRunner = (ctx: Ctx, payload: unknown, job: JobRow) => Promise<void>;

export interface PeriodicHook {
  name: string;
  intervalMs: number;
  /** `from` exclusive, `to` inclusive; both period boundaries; ctx.now === to. */
  run(ctx: Ctx, window: { from: number; to: number }): Promise<void>;
}

export function periodBoundary(t: number, intervalMs: number): number {
  return Math.floor(t / intervalMs) * intervalMs;
}

/** The scheduling side, bound to one unit of work. */
export class Jobs {
  /** Jobs scheduled in this unit of work: settle rescans the table only when a committed unit added some. */
  scheduled = 0;

  constructor(
    private readonly tx: Tx,
    private readonly ids: Ids,
  ) {}

  async schedule(kind: string, dueAt: number, payload: unknown = null): Promise<string> {
    if (!Number.isFinite(dueAt)) throw new RangeError('dueAt must be a finite time in ms');
    const id = await this.ids.next('job');
    this.tx.put(jobsTable, { id, kind, dueAt, payload });
    this.scheduled++;
    return id;
  }

  cancel(id: string): void {
    this.tx.delete(jobsTable, id);
  }

  async pending(kind: string): Promise<JobRow[]> {
    return this.tx.query(jobsTable, 'kind', kind);
  }
}

/** Jobs due at or before `now`, latest first, so `pop()` yields the next one (smallest dueAt, then id). */
export function dueQueue(jobs: readonly JobRow[], now: number): JobRow[] {
  return jobs
    .filter((job) => job.dueAt <= now)
    .sort((a, b) => b.dueAt - a.dueAt || Number(b.id) - Number(a.id));
}
