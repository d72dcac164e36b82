/**
 * Writes through the outbox (docs/OFFLINE.md "Writes and the outbox"). A screen calls `send` when the member
 * confirms: the mutation gets its id then, is stored in the durable outbox, and is pushed at once when the
 * device is online. The screen gets the answer if it came in that attempt (and presents it as before), or
 * `result: null`: the write waits in the outbox ("Waiting for connection") and is pushed when the connection
 * returns; its answer then reaches the member through `startWriteNotices` and the pending rows of
 * src/sync/pending.ts. The server applies each id at most once, so every resend is safe.
 */
import { liveQuery } from 'dexie';
import type { DeviceDb } from './db';
import { enqueue as addToOutbox, type SettledResult } from './outbox';
import type { SyncEngine } from './sync-engine';

/** Answers that mean the write was applied: 0/200, and 911 (a withdrawal submitted, awaiting review). */
export function isApplied(code: number): boolean {
  return code === 0 || code === 200 || code === 911;
}

export interface Sent {
  id: string;
  /** The server's answer, or null: not answered yet, the write waits in the outbox. */
  result: SettledResult | null;
}

export interface SendOptions {
  /** Fields of the args never written to the device (a withdrawal's security key): see outbox.ts. */
  secret?: readonly string[];
  /** The mutation id, when the caller fixed it already (at the member's confirmation); else a new one. */
  id?: string;
}

export interface Writes {
  send(name: string, args: Record<string, unknown>, options?: SendOptions): Promise<Sent>;
  /** Resolves with the answer to `id` when it is stored (by this tab or another); stops watching on abort. */
  answer(id: string, signal?: AbortSignal): Promise<SettledResult>;
  /** The member saw this answer: its pending row goes away. */
  acknowledge(id: string): Promise<void>;
  /** Ids this tab is awaiting on a screen (their answers are presented there, not by the notices). */
  awaited(id: string): boolean;
}

export interface WriteDeps {
  db: DeviceDb;
  sync: SyncEngine;
  online: () => boolean;
  member: () => string | null;
  newId?: () => string;
  now?: () => number;
  /** Retries while writes wait and the device is online (an answer lost): first delay, doubled to 60 s. */
  retryMs?: number;
}

const MAX_RETRY_MS = 60_000;

export function createWrites(deps: WriteDeps): Writes {
  const { db, sync } = deps;
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const now = deps.now ?? (() => Date.now());
  const first = deps.retryMs ?? 5_000;
  const onScreen = new Set<string>();
  let retry: ReturnType<typeof setTimeout> | undefined;

  /** Online but unanswered (the answer was lost, or the server is down): try again later, once timer. */
  function retryLater(delay: number): void {
    if (retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      if (!deps.online() || !deps.member()) return;
      sync
        .flush()
        .then((report) => {
          if (report.pending > 0 && report.error) retryLater(Math.min(delay * 2, MAX_RETRY_MS));
        })
        .catch(() => undefined);
    }, delay);
  }

  async function send(name: string, args: Record<string, unknown>, options: SendOptions = {}): Promise<Sent> {
    const memberId = deps.member();
    if (!memberId) throw new Error('A write needs a signed-in member');
    const secret = options.secret ?? [];
    let id: string;
    if (secret.length === 0 && !options.id) {
      // The engine counts it as pending and starts a flush when online.
      id = await sync.enqueue(name, args);
    } else {
      id = options.id ?? newId();
      // Already queued under this id (a resend of the same confirmation): the outbox keeps one entry.
      if (!(await db.outbox.where('id').equals(id).count()) && !(await db.results.get(id)))
        await addToOutbox(db, { id, memberId, name, args, createdAt: now() }, secret);
    }
    if (!deps.online()) return { id, result: null };
    // Awaited here while this attempt runs: its answer is the screen's to present, not the notices'.
    onScreen.add(id);
    await sync.flush();
    const result = ((await db.results.get(id)) as SettledResult | undefined) ?? null;
    if (!result) {
      onScreen.delete(id);
      retryLater(first);
    }
    return { id, result };
  }

  function answer(id: string, signal?: AbortSignal): Promise<SettledResult> {
    return new Promise((resolve, reject) => {
      const subscription = liveQuery(() => db.results.get(id)).subscribe({
        next: (value) => {
          if (!value) return;
          resolve(value as SettledResult);
          queueMicrotask(() => subscription.unsubscribe());
        },
        error: reject,
      });
      signal?.addEventListener('abort', () => subscription.unsubscribe(), { once: true });
    });
  }

  async function acknowledge(id: string): Promise<void> {
    onScreen.delete(id);
    await db.results.update(id, { seen: true, notified: true } as Partial<SettledResult>);
  }

  return { send, answer, acknowledge, awaited: (id) => onScreen.has(id) };
}

export interface Notice {
  result: SettledResult;
  applied: boolean;
}

/**
 * Presents answers nobody awaited on a screen (a write queued offline, answered after reconnecting, maybe in
 * another tab): each once on this device (`notified` is set in a transaction, so two tabs do not both
 * toast). An applied write's answer is then seen; a refused one keeps its row until the member dismisses it.
 */
export function startWriteNotices(
  deps: {
    db: DeviceDb;
    writes: Writes;
    member: () => string | null;
    subscribeMember: (l: () => void) => () => void;
  },
  present: (notice: Notice) => void,
): () => void {
  const { db, writes } = deps;
  let subscription: { unsubscribe(): void } | undefined;
  const follow = () => {
    subscription?.unsubscribe();
    const memberId = deps.member();
    if (!memberId) return;
    subscription = liveQuery(() =>
      db.results
        .where('memberId')
        .equals(memberId)
        .filter((r) => !(r as SettledResult).notified)
        .toArray(),
    ).subscribe({
      next: (fresh) => {
        for (const r of fresh as SettledResult[]) {
          if (writes.awaited(r.id)) continue;
          void claim(db, r.id).then((claimed) => {
            if (!claimed) return;
            const applied = isApplied(claimed.code);
            present({ result: claimed, applied });
            if (applied) void writes.acknowledge(claimed.id);
          });
        }
      },
      error: () => undefined,
    });
  };
  const stop = deps.subscribeMember(follow);
  follow();
  return () => {
    stop();
    subscription?.unsubscribe();
  };
}

async function claim(db: DeviceDb, id: string): Promise<SettledResult | null> {
  return db.transaction('rw', db.results, async () => {
    const row = (await db.results.get(id)) as SettledResult | undefined;
    if (!row || row.notified) return null;
    await db.results.update(id, { notified: true } as Partial<SettledResult>);
    return row;
  });
}
