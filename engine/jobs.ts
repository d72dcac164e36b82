/**
 * Persisted scheduled jobs and periodic hooks. A job is written through the unit of work and run by
 * `Engine.settle()` once due, in (dueAt, id) order, each in its own unit with `ctx.now = dueAt`; a periodic
 * hook gets the window of whole periods since its last run and computes what is due in it itself, so a
 * 40-day gap is one call. Windows are cut at each due job. engine/README.md "Jobs, hooks, feed, randomness".
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
