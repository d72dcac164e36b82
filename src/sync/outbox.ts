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

export async function enqueue(db: DeviceDb, entry: Omit<OutboxEntry, 'seq'>): Promise<void> {
  await db.outbox.add(entry);
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
  const results: StoredResult[] = [];
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
    results.push({ ...answer, id: entry.id, memberId: entry.memberId, name: entry.name, at: now });
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
    const batch = await db.outbox.where('memberId').equals(options.memberId).limit(size).toArray();
    if (batch.length === 0) break;
    let answers: PushAnswer[];
    try {
      const data = await api.call(
        '/api/sync/push',
        { clientId: options.clientId, mutations: batch.map(({ id, name, args }) => ({ id, name, args })) },
        { silent: true },
      );
      answers = data.results;
    } catch (err) {
      error = err;
      break;
    }
    const { stored, stop } = await settle(db, batch, answers, options.now());
    answered += stored;
    if (stop) {
      error = stop;
      break;
    }
  }
  return { answered, pending: await pendingCount(db, options.memberId), error };
}
