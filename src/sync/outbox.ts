/**
 * The outbox: mutations queued on the device, replayed through /api/sync/push in the order they were
 * queued. An entry leaves the outbox only in the same IndexedDB transaction that stores its answer (rule
 * Y8), so a crash in between cannot lose an answer or drop an unanswered mutation. Entries without an
 * answer (no response, a 401 or 503 that says nothing was applied, a refused push) stay, in order; the server answers a
 * replayed id with its first answer, so flushing twice never applies anything twice (Y1).
 */
import type { ApiClient } from '../api/client';
import type { DeviceDb, OutboxEntry, StoredResult } from './db';

/** Answers the server does not record (engine/sync/push.ts): the mutation was not applied, send it again. */
const NOT_APPLIED = new Set([401, 503]);

/** Mutations per push: the server's limit (engine/sync/mutations.ts MAX_PUSH). */
export const PUSH_BATCH = 500;

export interface PushAnswer {
  id: string;
  code: number;
  msg: string;
  data: unknown;
}

export interface FlushReport {
  /** Answers stored (and entries removed) by this flush. */
  answered: number;
  /** Entries still waiting. */
  pending: number;
  /** Why the flush stopped early, if it did: the error of the push that got no usable answer. */
  error: unknown;
}

/**
 * Fields that are never written to the device (the security key of a withdrawal): the entry is stored
 * without them, and `withheld` names them. Only the tab that queued the entry holds their values, in memory
 * (`held`); it sends them with the entry. Another tab, or this one after a reload, cannot: it leaves the
 * entry alone for SECRET_GRACE_MS (the holding tab is probably about to send it), then sends it without
 * them. That is safe: if an earlier push reached the server, the server answers that first answer; if none
 * did, it refuses the incomplete mutation (400, recorded, nothing applied) and the member sends it again.
 */
export type QueuedEntry = OutboxEntry & { withheld?: string[] };

/**
 * A stored answer as the outbox writes it: with the mutation's args (withheld fields never included) and
 * when it was queued, so a failed write can still be shown with its amount; `notified` once a tab presented
 * it, `seen` once the member saw it (a screen awaited it, or dismissed its row): src/sync/pending.ts.
 */
export type SettledResult = StoredResult & {
  args?: unknown;
  createdAt?: number;
  notified?: boolean;
  seen?: boolean;
};

export const SECRET_GRACE_MS = 60_000;

const held = new Map<string, Record<string, unknown>>();

/** True while this tab holds withheld fields of entries not sent yet (it must push them itself). */
export function holdsSecrets(): boolean {
  return held.size > 0;
}

function withoutFields(args: unknown, fields: readonly string[]): unknown {
  if (typeof args !== 'object' || args === null) return args;
  const copy: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const field of fields) delete copy[field];
  return copy;
}

function pick(args: unknown, fields: readonly string[]): Record<string, unknown> {
  const source = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  return Object.fromEntries(fields.filter((f) => source[f] !== undefined).map((f) => [f, source[f]]));
}

/**
 * Queues an entry. `secret` names fields of its args kept only in this tab's memory (see QueuedEntry). Only
 * the fields the args carry are withheld: a transfer's second-factor code is absent for a member without
 * two-factor authentication, and an entry with nothing withheld must not wait for a tab after a reload.
 */
export async function enqueue(
  db: DeviceDb,
  entry: Omit<OutboxEntry, 'seq'>,
  secret: readonly string[] = [],
): Promise<void> {
  const values = pick(entry.args, secret);
  const present = Object.keys(values);
  if (present.length === 0) {
    await db.outbox.add(entry);
    return;
  }
  held.set(entry.id, values);
  const stored: QueuedEntry = { ...entry, args: withoutFields(entry.args, present), withheld: present };
  await db.outbox.add(stored);
}

/** The mutation as pushed: its args with the withheld fields this tab holds; null to leave it for now. */
function sendable(entry: QueuedEntry, now: number): { id: string; name: string; args: unknown } | null {
  if (!entry.withheld?.length) return { id: entry.id, name: entry.name, args: entry.args };
  const values = held.get(entry.id);
  if (values) return { id: entry.id, name: entry.name, args: { ...(entry.args as object), ...values } };
  return now - entry.createdAt >= SECRET_GRACE_MS
    ? { id: entry.id, name: entry.name, args: entry.args }
    : null;
}

export function pendingCount(db: DeviceDb, memberId: string): Promise<number> {
  return db.outbox.where('memberId').equals(memberId).count();
}

/** Stores the answers and removes their entries in one transaction; stops at one that was not applied. */
async function settle(
  db: DeviceDb,
  batch: OutboxEntry[],
  answers: PushAnswer[],
  now: number,
): Promise<{ stored: number; stop: { code: number | string } | null }> {
  const byId = new Map(answers.map((a) => [a.id, a]));
  const results: SettledResult[] = [];
  const done: number[] = [];
  let stop: { code: number | string } | null = null;
  for (const entry of batch) {
    const answer = byId.get(entry.id);
    // Nothing was applied (lost session, or the server could not commit): this entry and every later one
    // wait, in order, for the next flush.
    if (!answer || NOT_APPLIED.has(answer.code)) {
      stop = { code: answer?.code ?? 'EBADRESPONSE' };
      break;
    }
    results.push({
      ...answer,
      id: entry.id,
      memberId: entry.memberId,
      name: entry.name,
      at: now,
      args: entry.args,
      createdAt: entry.createdAt,
    });
    if (entry.seq !== undefined) done.push(entry.seq);
  }
  await db.transaction('rw', db.outbox, db.results, async () => {
    await db.results.bulkPut(results);
    await db.outbox.bulkDelete(done);
  });
  return { stored: results.length, stop };
}

export async function flushOutbox(
  db: DeviceDb,
  api: ApiClient,
  options: { memberId: string; clientId: string; now: () => number; batch?: number },
): Promise<FlushReport> {
  const size = options.batch ?? PUSH_BATCH;
  let answered = 0;
  let error: unknown = null;
  for (;;) {
    const now = options.now();
    const queued: QueuedEntry[] = await db.outbox
      .where('memberId')
      .equals(options.memberId)
      .limit(size)
      .toArray();
    // Entries whose withheld fields another tab holds wait for it (and keep their place in the outbox).
    const batch = queued.filter((entry) => sendable(entry, now) !== null);
    if (batch.length === 0) break;
    let answers: PushAnswer[];
    try {
      const data = await api.call(
        '/api/sync/push',
        {
          clientId: options.clientId,
          mutations: batch.map((entry) => sendable(entry, now)).filter((m) => m !== null),
        },
        { silent: true },
      );
      answers = data.results;
    } catch (err) {
      error = err;
      break;
    }
    const { stored, stop } = await settle(db, batch, answers, options.now());
    for (const entry of batch.slice(0, stored)) held.delete(entry.id);
    answered += stored;
    if (stop) {
      error = stop;
      break;
    }
  }
  return { answered, pending: await pendingCount(db, options.memberId), error };
}
