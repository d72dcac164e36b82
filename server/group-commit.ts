/**
 * Group commit: the units of work that reach this process together run in ONE REPEATABLE READ transaction
 * and commit with one COMMIT. Each unit runs the engine's own code against the batch's snapshot with its
 * batch mates' writes laid over it (the overlay), is applied in the order it finishes (run again at once if
 * a batch mate changed what it read), and is answered only after the COMMIT. Reads, writes, conflicts, hot
 * rows and the start guard: docs/SERVER.md "Group commit"; figures: docs/SERVER.md "Load figures".
 */
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { StorageUnavailableError, type CommitNote, type RowRef, type StoredRow } from '../engine/index';
import { compareIds } from '../engine/server';
import { decodeValue, escapeText } from './sql-codec';
import type { SqlConnection, SqlDriver } from './sql-driver';
import type { StoreAdapter } from '../engine/index';

export interface GroupCommitOptions {
  /** How long a batch keeps admitting units after its transaction began, in ms (GROUP_COMMIT_MS). */
  windowMs: number;
  /** At most this many units per batch (GROUP_COMMIT_MAX). */
  maxUnits: number;
  /** Batches of one process in flight at once (GROUP_COMMIT_BATCHES); more wait, admitting units. */
  maxBatches: number;
}

export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { windowMs: 1, maxUnits: 64, maxBatches: 1 };

/** A table as the SQL store names it (server/sql-store.ts Target). */
export interface BatchTarget {
  sql: string;
  t: string | null;
}

type Conn = SqlConnection & { release(broken?: boolean): void };

/** What the batcher needs from the SQL store. */
export interface BatchHost {
  readonly driver: SqlDriver;
  readonly schema: string;
  target(table: string): BatchTarget;
  sequenceName(kind: string): string | null;
  scan(c: SqlConnection, table: string): Promise<unknown[]>;
  tables(c: SqlConnection): Promise<string[]>;
  write(c: SqlConnection, puts: StoredRow[], deletes: RowRef[]): Promise<void>;
  writeNotes(c: SqlConnection, notes: readonly CommitNote[]): Promise<void>;
  /** Runs one unit in a transaction of its own (the store's path without batching). */
  solo<T>(work: (store: StoreAdapter) => Promise<T>): Promise<T>;
  isRetryable(error: unknown): boolean;
  isConnectionLoss(error: unknown): boolean;
  succeeded(): void;
  /** A batch runs again after a conflict or a lost connection (the store's `retries`). */
  retried(): void;
  readBatchSize(size: number): void;
  /** A batch committed with this many units (server/metrics.ts). */
  committed(units: number): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The phases of a unit's time in group commit (docs/SERVER.md "Group commit"), each a histogram in µs. */
export const PHASES = [
  /** From the unit's start to its first statement (its handler's work before it reads). */
  'before',
  /** From its first statement until its batch had its slot (the batch before it in flight, committing). */
  'slot',
  /** From the slot (or the unit's first statement, if later) until BEGIN answered: pool connect, BEGIN. */
  'begin',
  /** From BEGIN (or its first statement, if later) until its last run finished: reads, the engine's rules. */
  'run',
  /** From its run's end until the batch ended: the admission window, slower batch mates, re-runs. */
  'mates',
  /** The batch's write statement (and its commit notes). */
  'write',
  /** COMMIT: the WAL flush. */
  'commit',
  /** The unit's whole time, start to answer. */
  'total',
] as const;
export type Phase = (typeof PHASES)[number];

/** Per-phase histograms of the units answered since the last reset, and the batches' sizes. */
export class PhaseTiming {
  readonly phases = new Map<Phase, RecordableHistogram>(PHASES.map((p) => [p, createHistogram()]));
  readonly batchUnits = createHistogram();
  /**
   * With `keepUnits` (the bench), every unit's phases until the next report, so the report can say what the
   * slowest 1% of units spent their time on (the tail's make-up); off in production (no per-unit memory).
   */
  keepUnits = false;
  private units: number[][] = [];

  /** One unit's phases, in the order of PHASES, in ms. */
  unit(values: number[]): void {
    PHASES.forEach((phase, i) => {
      // µs, at least 1 (a histogram records positive integers).
      this.phases.get(phase)?.record(Math.max(1, Math.round((values[i] ?? 0) * 1000)));
    });
    if (this.keepUnits) this.units.push(values);
  }

  /** p50, p99 and max per phase in ms, and the batches' sizes; then starts again. */
  report(): PhaseReport {
    const ms = (us: number) => Math.round(us / 10) / 100;
    const phases = {} as PhaseReport['phases'];
    for (const [phase, h] of this.phases) {
      phases[phase] =
        h.count === 0
          ? { count: 0, p50: 0, p99: 0, max: 0 }
          : { count: h.count, p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
      h.reset();
    }
    const b = this.batchUnits;
    const batches =
      b.count === 0 ? { count: 0, mean: 0, max: 0 } : { count: b.count, mean: b.mean, max: b.max };
    b.reset();
    const total = PHASES.indexOf('total');
    const slowest = this.units
      .sort((x, y) => (y[total] ?? 0) - (x[total] ?? 0))
      .slice(0, Math.ceil(this.units.length / 100));
    this.units = [];
    if (slowest.length === 0) return { phases, batches };
    const tail = {} as Record<Phase, number>;
    PHASES.forEach((phase, i) => {
      tail[phase] =
        Math.round((100 * slowest.reduce((sum, v) => sum + (v[i] ?? 0), 0)) / slowest.length) / 100;
    });
    return { phases, batches, tail };
  }
}

export interface PhaseReport {
  phases: Record<Phase, { count: number; p50: number; p99: number; max: number }>;
  batches: { count: number; mean: number; max: number };
  /** With keepUnits: the mean of each phase over the slowest 1% of units (by total), ms. */
  tail?: Record<Phase, number>;
}

interface Member {
  work: (store: StoreAdapter) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  batch: Batch | null;
  /** Bumped at every run: the completion of an earlier run is ignored. */
  token: number;
  /** The batch's apply count when this run began. */
  startSeq: number;
  reads: Set<string>;
  puts: StoredRow[];
  deletes: RowRef[];
  notes: readonly CommitNote[];
  outcome: Outcome | null;
  /** Runs inside the batch (conflicts with batch mates). */
  runs: number;
  /** Sequence numbers this unit drew in earlier runs, reused in order by the next run (no gaps, no I/O). */
  drawn: Map<string, number[]>;
  cursor: Map<string, number>;
  /** performance.now() at the start, at its first statement, and when its last run finished. */
  t0: number;
  tJoin: number;
  tDone: number;
}

type Overlaid =
  { table: string; id: string; ix: string[]; value: unknown } | { table: string; id: string; deleted: true };

type Part =
  | { kind: 'get'; table: string; id: string }
  | { kind: 'query'; table: string; key: string }
  | { kind: 'sequence'; name: string };

interface Pending {
  part: Part;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Units re-run inside one batch past this many times leave it (never reached: each re-run follows a mate). */
const MAX_RUNS = 1_000;
/** Rows a retried batch queues for (advisory locks), and rows kept as hot. */
const MAX_LOCKED_ROWS = 256;
/**
 * How long a row that made a batch retry stays hot (locked first by every batch of this process), counted
 * from that conflict: writing it again does not keep it hot (see `end`).
 */
const HOT_MS = 1_000;
/**
 * A batch waiting for the in-flight limit starts anyway once the batches in flight have made no progress
 * for this long (no unit can wait on itself: a unit waiting for a unit of work of its own stalls its batch).
 * While they progress (a read answered, a unit finished) or are only writing and committing (waiting on
 * PostgreSQL alone), the guard waits again: a plain 250 ms timer let every batch past the limit on an
 * overloaded machine (7 in flight at a limit of 2 in a test at load 27; 8-11 at a limit of 1 in the bench at
 * load 25-31, the pool's connections then ran out: `begin` of 1-7 s; 2026-11-29).
 */
const START_GUARD_MS = 250;

const rowKey = (table: string, id: string) => `${table}\u0000${id}`;
/** A row's name in advisory locks, as the store's re-runs name it (server/sql-store.ts). */
const lockKey = (table: string, id: string) => `${escapeText(table)}:${escapeText(id)}`;
const P = (table: string, id: string) => `p\u0000${table}\u0000${id}`;
const Q = (table: string, key: string) => `q\u0000${table}\u0000${key}`;
const T = (table: string) => `t\u0000${table}`;

export class GroupCommit {
  /** The batch admitting units, if any. */
  private admitting: Batch | null = null;
  private inFlight = 0;
  /** The batches holding a slot. */
  private readonly flying = new Set<Batch>();
  private readonly waiting: Array<() => void> = [];
  /** Bumped whenever a batch's read is answered or one of its units finishes (the start guard's clock). */
  progress = 0;
  /** Row -> time until which it is hot. */
  readonly hot = new Map<string, number>();
  /** Counts for tests and the bench. */
  readonly stats = {
    batches: 0,
    units: 0,
    reruns: 0,
    retries: 0,
    solo: 0,
    largest: 0,
    reads: 0,
    /** The most batches of this process in flight at once. */
    overlapped: 0,
    /** Batch attempts that took hot rows' advisory locks before their snapshot. */
    hotLocked: 0,
  };
  /** Where the units' time went (the bench prints it; cheap enough to keep on). */
  readonly timing = new PhaseTiming();

  constructor(
    readonly host: BatchHost,
    readonly options: GroupCommitOptions,
  ) {}

  transaction<T>(work: (store: StoreAdapter) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const member: Member = {
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
        batch: null,
        token: 0,
        startSeq: 0,
        reads: new Set(),
        puts: [],
        deletes: [],
        notes: [],
        outcome: null,
        runs: 0,
        drawn: new Map(),
        cursor: new Map(),
        t0: performance.now(),
        tJoin: 0,
        tDone: 0,
      };
      this.run(member);
    });
  }

  /** Runs the member's work: joined to its batch, or (first run) joining one at its first statement. */
  run(m: Member): void {
    const token = ++m.token;
    m.reads = new Set();
    m.cursor = new Map();
    m.puts = [];
    m.deletes = [];
    m.notes = [];
    m.outcome = null;
    if (m.batch) m.startSeq = m.batch.seq;
    const view = this.view(m, token);
    let result: Promise<unknown>;
    try {
      result = m.work(view);
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (value) => this.finished(m, token, { ok: true, value }),
      (error: unknown) => this.finished(m, token, { ok: false, error }),
    );
  }

  private join(m: Member): Batch {
    if (m.batch) return m.batch;
    let batch = this.admitting;
    if (!batch || !batch.admitting) {
      batch = new Batch(this);
      this.admitting = batch;
      void batch.start();
    }
    batch.members.push(m);
    m.batch = batch;
    m.startSeq = batch.seq;
    if (m.tJoin === 0) m.tJoin = performance.now();
    if (batch.members.length >= this.options.maxUnits) batch.closeAdmission();
    return batch;
  }

  private finished(m: Member, token: number, outcome: Outcome): void {
    if (token !== m.token) return;
    const batch = m.batch;
    if (!batch) {
      // No statement: nothing to commit, no batch.
      if (outcome.ok) m.resolve(outcome.value);
      else m.reject(outcome.error);
      return;
    }
    batch.finished(m, outcome);
  }

  /** A batch's slot among the batches in flight. */
  async slot(batch: Batch): Promise<void> {
    if (this.inFlight < this.options.maxBatches) {
      this.take(batch);
      return;
    }
    await new Promise<void>((resolve) => {
      let done = false;
      const go = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        this.take(batch);
        resolve();
      };
      let seen = this.progress;
      const guard = () => {
        const stalled = seen === this.progress && [...this.flying].some((b) => !b.ending);
        if (stalled || this.flying.size === 0) go();
        else {
          seen = this.progress;
          timer = setTimeout(guard, START_GUARD_MS);
        }
      };
      let timer = setTimeout(guard, START_GUARD_MS);
      this.waiting.push(go);
    });
  }

  private take(batch: Batch): void {
    this.inFlight++;
    this.flying.add(batch);
    this.stats.overlapped = Math.max(this.stats.overlapped, this.inFlight);
  }

  freeSlot(batch: Batch): void {
    this.inFlight--;
    this.flying.delete(batch);
    this.waiting.shift()?.();
  }

  /** The hot rows still hot, in lock order. */
  hotRows(now: number): string[] {
    const rows: string[] = [];
    for (const [row, until] of this.hot) {
      if (until < now) this.hot.delete(row);
      else rows.push(row);
    }
    return rows.sort().slice(0, MAX_LOCKED_ROWS);
  }

  /** The store seen by one run of a member. */
  private view(m: Member, token: number): StoreAdapter {
    const live = (): Batch => {
      if (token !== m.token) throw new Error('This unit of work has ended');
      return this.join(m);
    };
    let committed = false;
    return {
      kind: 'sql-transaction',
      get: async (table, id) => {
        const b = live();
        m.reads.add(P(table, id));
        return b.get(table, id);
      },
      getMany: async (refs) => {
        const b = live();
        return Promise.all(
          refs.map((ref) => {
            m.reads.add(P(ref.table, ref.id));
            return b.get(ref.table, ref.id);
          }),
        );
      },
      query: async (table, key) => {
        const b = live();
        m.reads.add(Q(table, key));
        const rows = await b.query(table, key);
        for (const row of rows) m.reads.add(P(table, String((row as { id?: unknown }).id)));
        return rows;
      },
      scan: async (table) => {
        const b = live();
        m.reads.add(T(table));
        return b.scan(table);
      },
      tables: async () => live().tables(),
      nextId: async (kind) => {
        const name = this.host.sequenceName(kind);
        if (name === null) return undefined;
        const b = live();
        const drawn = m.drawn.get(name) ?? [];
        m.drawn.set(name, drawn);
        const at = m.cursor.get(name) ?? 0;
        m.cursor.set(name, at + 1);
        const earlier = drawn[at];
        if (earlier !== undefined) return earlier;
        const n = (await b.read({ kind: 'sequence', name })) as number;
        drawn[at] = n;
        return n;
      },
      commit: async (puts, deletes, notes = []) => {
        if (committed) throw new Error('A unit of work commits once');
        committed = true;
        if (puts.length === 0 && deletes.length === 0 && notes.length === 0) return;
        live();
        m.puts = puts;
        m.deletes = deletes;
        m.notes = notes;
      },
      close: async () => undefined,
    };
  }
}

class Batch {
  readonly members: Member[] = [];
  admitting = true;
  /** Units applied to the overlay so far. */
  seq = 0;
  private overlay = new Map<string, Overlaid>();
  /** Conflict key -> the apply count that last wrote it. */
  private written = new Map<string, number>();
  /** Rows and index keys read from the snapshot (answers do not change within the transaction). */
  private cache = new Map<string, Promise<unknown>>();
  private notes: CommitNote[] = [];
  private pending: Pending[] = [];
  private conn: Promise<Conn> | null = null;
  private c: Conn | null = null;
  private begin: Promise<unknown> | null = null;
  /** The first statement of this attempt that failed: the attempt fails with it. */
  private failure: unknown = null;
  private attempt = 0;
  private locked: string[] = [];
  private contended: string[] = [];
  private started = false;
  /** Its units are done: the batch is writing, committing or ending (it waits on PostgreSQL alone). */
  ending = false;
  /** The attempt has ended: no statement may go to its connection any more. */
  private done = false;
  /** Units that read what a batch mate wrote after they began: run again one at a time, in order. */
  private reruns: Member[] = [];
  private rerunning: Member | null = null;
  private whenOpen: Promise<void>;
  private opened!: () => void;
  /** performance.now() when the batch had its slot, when BEGIN (of the last attempt) answered, when it ended. */
  private tSlot = 0;
  private tBegun = 0;
  private tEnd = 0;

  constructor(private readonly gc: GroupCommit) {
    this.whenOpen = new Promise((resolve) => {
      this.opened = resolve;
    });
  }

  closeAdmission(): void {
    this.admitting = false;
    this.maybeEnd();
  }

  /** Takes a slot and a connection, sends BEGIN; admission closes `windowMs` later. */
  async start(): Promise<void> {
    await this.gc.slot(this);
    this.tSlot = performance.now();
    this.started = true;
    this.open();
    const { windowMs } = this.gc.options;
    if (windowMs <= 0) setImmediate(() => this.closeAdmission());
    else setTimeout(() => this.closeAdmission(), windowMs);
  }

  private open(): void {
    this.attempt++;
    const attempt = this.attempt;
    const now = Date.now();
    this.locked = [...new Set([...this.contended, ...this.gc.hotRows(now)])].sort().slice(0, MAX_LOCKED_ROWS);
    const locks = this.locked.map((row) => `${this.gc.host.schema}:${row}`);
    if (locks.length > 0) this.gc.stats.hotLocked++;
    this.conn = (async () => {
      let c: Conn;
      try {
        c = await this.gc.host.driver.connect();
      } catch (error) {
        throw new StorageUnavailableError('The database cannot be reached', { cause: error });
      }
      if (attempt !== this.attempt) {
        c.release();
        throw new Error('This batch attempt has ended');
      }
      this.c = c;
      // Session advisory locks BEFORE the snapshot (the first statement after BEGIN takes it): a batch that
      // writes a hot row waits for the batch holding it to commit, then reads what it wrote.
      const lock =
        locks.length > 0
          ? c.query(`SELECT pg_advisory_lock(hashtextextended(k, 0)) FROM unnest($1::text[]) AS k`, [locks])
          : null;
      lock?.catch(() => undefined);
      const begin = c.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      begin.catch(() => undefined);
      this.begin = lock ? Promise.all([lock, begin]) : begin;
      this.begin.then(
        () => {
          if (attempt === this.attempt) this.tBegun = performance.now();
        },
        () => undefined,
      );
      return c;
    })();
    this.conn.catch((error: unknown) => this.fail(error));
    this.gc.stats.batches++;
    this.opened();
  }

  private fail(error: unknown): void {
    this.failure ??= error;
  }

  // ---- reads ----

  get(table: string, id: string): Promise<unknown> {
    const o = this.overlay.get(rowKey(table, id));
    if (o) return Promise.resolve('deleted' in o ? undefined : o.value);
    const key = `g\u0000${table}\u0000${id}`;
    let read = this.cache.get(key);
    if (!read) {
      read = this.read({ kind: 'get', table, id });
      this.cache.set(key, read);
    }
    return read;
  }

  async query(table: string, key: string): Promise<unknown[]> {
    const cacheKey = `q\u0000${table}\u0000${key}`;
    let read = this.cache.get(cacheKey);
    if (!read) {
      read = this.read({ kind: 'query', table, key });
      this.cache.set(cacheKey, read);
    }
    const base = (await read) as unknown[];
    return this.laid(table, base, (ix) => ix.includes(key));
  }

  async scan(table: string): Promise<unknown[]> {
    const c = await this.connection();
    return this.laid(table, await this.guard(this.gc.host.scan(c, table)), () => true);
  }

  async tables(): Promise<string[]> {
    const c = await this.connection();
    const names = new Set(await this.guard(this.gc.host.tables(c)));
    for (const o of this.overlay.values()) if (!('deleted' in o)) names.add(o.table);
    return [...names].sort();
  }

  /** Snapshot rows with the overlay laid over them: rows written in the batch replace or remove theirs. */
  private laid(table: string, base: unknown[], match: (ix: string[]) => boolean): unknown[] {
    const out: unknown[] = [];
    for (const row of base) {
      const id = String((row as { id?: unknown }).id);
      if (!this.overlay.has(rowKey(table, id))) out.push(row);
    }
    for (const o of this.overlay.values())
      if (o.table === table && !('deleted' in o) && match(o.ix)) out.push(o.value);
    return out.sort((a, b) =>
      compareIds(String((a as { id?: unknown }).id), String((b as { id?: unknown }).id)),
    );
  }

  private async connection(): Promise<Conn> {
    await this.whenOpen;
    if (!this.conn || this.done) throw new Error('This unit of work has ended');
    const c = await this.conn;
    await this.begin;
    return c;
  }

  private async guard<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (error) {
      this.fail(error);
      throw error;
    }
  }

  read(part: Part): Promise<unknown> {
    if (this.done) return Promise.reject(new Error('This unit of work has ended'));
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) process.nextTick(() => void this.flush());
      this.pending.push({ part, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    // A batch still waiting for its slot keeps collecting reads: they go in its first statement.
    await this.whenOpen;
    let c: Conn;
    try {
      c = await (this.conn as Promise<Conn>);
    } catch (error) {
      const failed = this.pending;
      this.pending = [];
      for (const r of failed) r.reject(error);
      return;
    }
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    if (this.done) {
      // Read by a unit that no longer waits for it, after its batch ended: never sent.
      for (const r of batch) r.reject(new Error('This unit of work has ended'));
      return;
    }
    try {
      const [, results] = await Promise.all([this.begin, this.readAll(c, batch)]);
      this.gc.progress++;
      batch.forEach((r, i) => r.resolve(results[i]));
    } catch (error) {
      this.fail(error);
      for (const r of batch) r.reject(error);
    }
  }

  /**
   * The reads of every unit issued together, in one statement: per table one `id = ANY(...)` for its point
   * reads and one lateral join for its index reads; per sequence one `nextval` per draw.
   */
  private async readAll(c: SqlConnection, batch: readonly Pending[]): Promise<unknown[]> {
    const host = this.gc.host;
    host.readBatchSize(batch.length);
    this.gc.stats.reads++;
    const gets = new Map<string, string[]>();
    const queries = new Map<string, string[]>();
    const sequences = new Map<string, number>();
    for (const { part } of batch) {
      if (part.kind === 'get') {
        const ids = gets.get(part.table) ?? [];
        if (!ids.includes(part.id)) ids.push(part.id);
        gets.set(part.table, ids);
      } else if (part.kind === 'query') {
        const keys = queries.get(part.table) ?? [];
        if (!keys.includes(part.key)) keys.push(part.key);
        queries.set(part.table, keys);
      } else sequences.set(part.name, (sequences.get(part.name) ?? 0) + 1);
    }
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const parts: string[] = [];
    const where = ({ t }: BatchTarget, condition: string) =>
      t === null ? `WHERE ${condition}` : `WHERE t = ${param(escapeText(t))} AND ${condition}`;
    const getTables = [...gets.keys()].sort();
    const queryTables = [...queries.keys()].sort();
    const sequenceNames = [...sequences.keys()].sort();
    getTables.forEach((table, i) => {
      const target = host.target(table);
      const ids = (gets.get(table) ?? []).map(escapeText);
      parts.push(
        `SELECT ${i} AS g, NULL::text AS k, id, v FROM ${target.sql} ${where(target, `id = ANY(${param(ids)}::text[])`)}`,
      );
    });
    queryTables.forEach((table, i) => {
      const target = host.target(table);
      const keys = (queries.get(table) ?? []).map(escapeText);
      parts.push(
        `SELECT ${getTables.length + i} AS g, q.k, r.id, r.v FROM unnest(${param(keys)}::text[]) AS q(k) ` +
          `JOIN LATERAL (SELECT id, v FROM ${target.sql} ${where(target, 'ix @> ARRAY[q.k]')}) AS r ON true`,
      );
    });
    sequenceNames.forEach((name, i) => {
      parts.push(
        `SELECT ${getTables.length + queryTables.length + i} AS g, NULL::text AS k, NULL::text AS id, ` +
          `to_jsonb(nextval('${name}')) AS v FROM generate_series(1, ${param(sequences.get(name) ?? 0)}::int)`,
      );
    });
    const { rows } = await c.query<{ g: number; k: string | null; id: string | null; v: unknown }>(
      parts.join(' UNION ALL '),
      params,
      true,
    );
    const found = new Map<string, unknown>();
    const keyed = new Map<string, Array<{ id: string; v: unknown }>>();
    const drawn = new Map<string, number[]>();
    for (const row of rows) {
      // Decoded once per row (decodeValue works in place), whichever units asked for it.
      if (row.g < getTables.length) found.set(`${row.g}\u0000${row.id ?? ''}`, decodeValue(row.v));
      else if (row.g < getTables.length + queryTables.length) {
        const list = keyed.get(`${row.g}\u0000${row.k ?? ''}`) ?? [];
        list.push({ id: row.id ?? '', v: decodeValue(row.v) });
        keyed.set(`${row.g}\u0000${row.k ?? ''}`, list);
      } else {
        const name = sequenceNames[row.g - getTables.length - queryTables.length] ?? '';
        const list = drawn.get(name) ?? [];
        list.push(Number(row.v));
        drawn.set(name, list);
      }
    }
    return batch.map(({ part }) => {
      if (part.kind === 'get')
        return found.get(`${getTables.indexOf(part.table)}\u0000${escapeText(part.id)}`);
      if (part.kind === 'query') {
        const g = getTables.length + queryTables.indexOf(part.table);
        return (keyed.get(`${g}\u0000${escapeText(part.key)}`) ?? [])
          .sort((a, b) => compareIds(a.id, b.id))
          .map((r) => r.v);
      }
      return drawn.get(part.name)?.shift() ?? NaN;
    });
  }

  // ---- units finishing ----

  finished(m: Member, outcome: Outcome): void {
    this.gc.progress++;
    if (this.rerunning === m) this.rerunning = null;
    // A unit that left for a hash (engine/security/hashing.ts HashNeeded) wrote nothing and runs again later,
    // in a batch of its own: it leaves this one now.
    if (!outcome.ok && (outcome.error as { name?: unknown } | null)?.name === 'HashNeeded') {
      this.members.splice(this.members.indexOf(m), 1);
      m.batch = null;
      m.reject(outcome.error);
      this.nextRerun();
      this.maybeEnd();
      return;
    }
    // A unit that read a row (an index key, a table) a batch mate wrote after it began runs again, against the
    // overlay: units apply as if one ran after the other.
    let stale = false;
    for (const key of m.reads) {
      if ((this.written.get(key) ?? 0) > m.startSeq) {
        stale = true;
        break;
      }
    }
    if (stale && this.failure === null && m.runs < MAX_RUNS) {
      m.runs++;
      this.gc.stats.reruns++;
      this.reruns.push(m);
    } else if (stale && this.failure === null) {
      // Never applied from a stale view: past MAX_RUNS the unit answers 503 with nothing written.
      m.outcome = {
        ok: false,
        error: new StorageUnavailableError('The unit of work kept conflicting in its batch'),
      };
    } else {
      // (With a failed statement the whole attempt is dropped anyway: run again or unit by unit.)
      m.outcome = outcome;
      m.tDone = performance.now();
      if (outcome.ok) this.apply(m);
    }
    this.nextRerun();
    this.maybeEnd();
  }

  /** One re-run at a time: each sees every unit applied before it, so it does not conflict again. */
  private nextRerun(): void {
    if (this.rerunning) return;
    const next = this.reruns.shift();
    if (!next) return;
    this.rerunning = next;
    this.gc.run(next);
  }

  private apply(m: Member): void {
    if (m.puts.length === 0 && m.deletes.length === 0 && m.notes.length === 0) return;
    const seq = ++this.seq;
    for (const d of m.deletes) {
      const old = this.overlay.get(rowKey(d.table, d.id));
      this.overlay.set(rowKey(d.table, d.id), { table: d.table, id: d.id, deleted: true });
      this.mark(d.table, d.id, old && !('deleted' in old) ? old.ix : [], seq);
    }
    for (const p of m.puts) {
      const old = this.overlay.get(rowKey(p.table, p.id));
      this.overlay.set(rowKey(p.table, p.id), { table: p.table, id: p.id, ix: p.ix, value: p.value });
      this.mark(p.table, p.id, old && !('deleted' in old) ? [...old.ix, ...p.ix] : p.ix, seq);
    }
    this.notes.push(...m.notes);
  }

  private mark(table: string, id: string, ix: readonly string[], seq: number): void {
    this.written.set(P(table, id), seq);
    this.written.set(T(table), seq);
    for (const key of ix) this.written.set(Q(table, key), seq);
  }

  private maybeEnd(): void {
    if (this.admitting || this.ending || !this.started) return;
    if (this.rerunning || this.members.some((m) => m.outcome === null)) return;
    this.ending = true;
    void this.end();
  }

  // ---- the end of an attempt ----

  private async end(): Promise<void> {
    const gc = this.gc;
    const host = gc.host;
    this.done = true;
    if (this.members.length === 0) {
      // Every unit left (for a hash): the transaction begun for them ends with nothing in it.
      await (this.conn as Promise<Conn>).catch(() => undefined);
      await this.rollback();
      await this.release(false);
      gc.freeSlot(this);
      return;
    }
    gc.stats.units += this.members.length;
    gc.stats.largest = Math.max(gc.stats.largest, this.members.length);
    this.tEnd = performance.now();
    let committing = false;
    let broken = false;
    /** Rows written that existed in the snapshot (read first): the ones another transaction can conflict on. */
    const written = new Set<string>();
    try {
      const c = await (this.conn as Promise<Conn>);
      await this.begin;
      if (this.failure !== null) throw this.failure;
      const puts: StoredRow[] = [];
      const deletes: RowRef[] = [];
      for (const o of this.overlay.values()) {
        if (this.cache.has(`g\u0000${o.table}\u0000${o.id}`)) written.add(lockKey(o.table, o.id));
        if ('deleted' in o) deletes.push({ table: o.table, id: o.id });
        else puts.push({ table: o.table, id: o.id, ix: o.ix, value: o.value });
      }
      const write = puts.length > 0 || deletes.length > 0 ? host.write(c, puts, deletes) : null;
      if (this.notes.length > 0) {
        // Notes after the rows and before COMMIT, on the batch's connection: they commit together or not at all.
        await write;
        await host.writeNotes(c, this.notes);
      } else write?.catch(() => undefined);
      committing = true;
      const commit = c.query('COMMIT');
      commit.catch(() => undefined);
      await write;
      const tWritten = performance.now();
      await commit;
      this.timed(tWritten, performance.now());
      host.succeeded();
      host.committed(this.members.length);
      // A hot row stays hot for HOT_MS after the conflict that made it so, however often it is written
      // since: writing it again kept it hot for good under steady load, and then every batch of the process
      // took its lock first, so batches that never wrote it queued behind the one that did (pairs paid
      // through both instances made a conflict now and then, and then all their rows hot).
      await this.release(false);
      gc.freeSlot(this);
      for (const m of this.members) {
        const outcome = m.outcome as Outcome;
        if (outcome.ok) m.resolve(outcome.value);
        else m.reject(outcome.error);
      }
      return;
    } catch (error) {
      if (host.isConnectionLoss(error)) {
        broken = true;
        if (committing || this.attempt >= 100) {
          await this.release(true);
          gc.freeSlot(this);
          const lost = new StorageUnavailableError('The database connection was lost', { cause: error });
          for (const m of this.members) m.reject(lost);
          return;
        }
      } else if (!host.isRetryable(error) || this.attempt >= 100) {
        // The batch itself failed (a constraint refused a row, a note's writer failed): each unit runs again
        // in a transaction of its own, so only the unit at fault fails.
        await this.rollback();
        await this.release(false);
        gc.freeSlot(this);
        const [only] = this.members;
        if (this.members.length === 1 && only) {
          // A batch of one unit failed as that unit would have alone.
          only.reject(error);
          return;
        }
        for (const m of this.members) {
          gc.stats.solo++;
          host.solo(m.work).then(m.resolve, m.reject);
        }
        return;
      }
      // A conflict with another transaction, or a connection lost before COMMIT: the whole batch again, on a
      // fresh snapshot, queued behind the rows it wrote.
      gc.stats.retries++;
      host.retried();
      if (!broken) await this.rollback();
      await this.release(broken);
      const now = Date.now();
      this.contended = [...new Set([...this.contended, ...written])].sort().slice(0, MAX_LOCKED_ROWS);
      for (const row of this.contended) gc.hot.set(row, now + HOT_MS);
      this.reset();
      this.open();
      for (const m of this.members) {
        m.runs = 0;
        this.gc.run(m);
      }
    }
  }

  /** Each unit's phases (PHASES) into the group committer's histograms, at its batch's commit. */
  private timed(tWritten: number, tCommitted: number): void {
    const timing = this.gc.timing;
    timing.batchUnits.record(this.members.length);
    for (const m of this.members) {
      const joined = m.tJoin || this.tSlot;
      const ran = Math.max(joined, this.tBegun);
      // In the order of PHASES.
      timing.unit([
        joined - m.t0,
        Math.max(0, this.tSlot - joined),
        Math.max(0, this.tBegun - Math.max(joined, this.tSlot)),
        Math.max(0, (m.tDone || this.tEnd) - ran),
        Math.max(0, this.tEnd - Math.max(m.tDone, ran)),
        tWritten - this.tEnd,
        tCommitted - tWritten,
        tCommitted - m.t0,
      ]);
    }
  }

  private reset(): void {
    this.seq = 0;
    this.overlay = new Map();
    this.written = new Map();
    this.cache = new Map();
    this.notes = [];
    this.failure = null;
    this.ending = false;
    this.done = false;
    this.c = null;
    this.begin = null;
    this.reruns = [];
    this.rerunning = null;
  }

  private async rollback(): Promise<void> {
    const c = this.c;
    if (c) await c.query('ROLLBACK').catch(() => undefined);
  }

  private async release(broken: boolean): Promise<void> {
    const c = this.c;
    this.c = null;
    if (!c) return;
    if (this.locked.length > 0 && !broken)
      await c.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    c.release(broken);
  }
}
