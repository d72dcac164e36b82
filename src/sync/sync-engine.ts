/**
 * The device half of sync: queue mutations while offline (or always), replay them when the device comes back
 * online, then pull what changed. It talks to the server only through the app's API client, so demo and
 * live differ only in the transport. Status (idle, syncing, offline, error, pending count) is a tiny store
 * for the UI (useSyncExternalStore-shaped).
 *
 * Only the leader tab answers online events (pass `leader: onLeadership` from src/pwa/leadership); any tab
 * may enqueue and flush, since the server applies each mutation id at most once however often it is pushed.
 */
import type { ApiClient } from '../api/client';
import { valueStore, type ValueStore } from '../pwa/store';
import type { DeviceDb, StoredResult } from './db';
import { enqueue, flushOutbox, pendingCount, type FlushReport } from './outbox';
import { lastPulledAt, pullChanges } from './replica';

export type SyncState = 'idle' | 'syncing' | 'offline' | 'error';

export interface SyncStatus {
  state: SyncState;
  /** The member's mutations still in the outbox. */
  pending: number;
  /** The code of the last failure ('ERR_NETWORK', 401, ...), null after a clean sync. */
  error: string | null;
  /** When the signed-in member's replica was last pulled complete (ms), null if never on this device. */
  lastSync: number | null;
}

export interface OnlineSource {
  get(): boolean;
  subscribe(listener: () => void): () => void;
}

/** navigator.onLine and the window's online/offline events. */
export function browserOnline(): OnlineSource {
  return {
    get: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
    subscribe: (listener) => {
      addEventListener('online', listener);
      addEventListener('offline', listener);
      return () => {
        removeEventListener('online', listener);
        removeEventListener('offline', listener);
      };
    },
  };
}

export interface SyncEngineOptions {
  api: ApiClient;
  db: DeviceDb;
  online: OnlineSource;
  /** The signed-in member's id (the API client's UserId), or null when signed out. */
  member: () => string | null;
  /** Runs the online-event task only while this tab leads (src/pwa/leadership `onLeadership`). */
  leader?: (task: () => () => void) => () => void;
  newId?: () => string;
  now?: () => number;
  batch?: number;
  /** Runs `task` after `ms` (tests: a manual scheduler); answers a cancel. setTimeout by default. */
  schedule?: (task: () => void, ms: number) => () => void;
}

/**
 * A push or pull that got no usable answer while the device says it is online (a server restarting, a lost
 * answer, a proxy error) is tried again after 1 s, then 2 s, 4 s, ... at most 30 s apart, until one succeeds.
 * Not after a 401: the session is gone and signing in starts a sync of its own.
 */
export const RETRY = { firstMs: 1_000, maxMs: 30_000 } as const;

const defaultSchedule = (task: () => void, ms: number) => {
  const timer = setTimeout(task, ms);
  return () => clearTimeout(timer);
};

export interface SyncEngine {
  readonly status: Pick<ValueStore<SyncStatus>, 'get' | 'subscribe'>;
  /** The device database screens read the replica from (src/sync/live.ts). */
  readonly db: DeviceDb;
  /** Queues a mutation (a contract path and its body); answers its id. Flushes at once when online. */
  enqueue(name: string, args?: unknown): Promise<string>;
  flush(): Promise<FlushReport>;
  /** Pulls what changed; a pull asked for while one runs makes one more pass after it, not a second pull. */
  pull(): Promise<number>;
  /** A pull in the background when a member is signed in and the device is online (failures go to status). */
  requestPull(): void;
  /** Re-reads the signed-in member's pending count and last sync time (after a sign-in or sign-out). */
  refresh(): Promise<void>;
  /** Flush, then pull. */
  sync(): Promise<void>;
  /** The stored answer to a queued mutation, once it arrived. */
  result(id: string): Promise<StoredResult | undefined>;
  /** Follows online/offline events (syncing on reconnect); answers the function that stops it. */
  start(): () => void;
}

function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) return String(error.code);
  return error instanceof Error ? error.message : String(error);
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { api, db, online } = options;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const now = options.now ?? (() => Date.now());
  const status = valueStore<SyncStatus>({
    state: online.get() ? 'idle' : 'offline',
    pending: 0,
    error: null,
    lastSync: null,
  });
  let clientId: Promise<string> | undefined;
  let flushing: Promise<FlushReport> | undefined;
  let again = false;
  let pulling: Promise<number> | undefined;
  let pullAgain = false;
  const schedule = options.schedule ?? defaultSchedule;
  let retryDelay: number = RETRY.firstMs;
  let cancelRetry: (() => void) | null = null;

  const update = (patch: Partial<SyncStatus>) => status.set({ ...status.get(), ...patch });
  const memberOrThrow = () => {
    const member = options.member();
    if (!member) throw new Error('Sync needs a signed-in member');
    return member;
  };

  /** One id per device database, kept so the server's records name the device a mutation came from. */
  function deviceId(): Promise<string> {
    clientId ??= db.transaction('rw', db.meta, async () => {
      const row = await db.meta.get('clientId');
      if (row) return row.value;
      const value = newId();
      await db.meta.put({ key: 'clientId', value });
      return value;
    });
    return clientId;
  }

  const refreshPending = async () => {
    const member = options.member();
    update({
      pending: member ? await pendingCount(db, member) : 0,
      lastSync: member ? await lastPulledAt(db, member) : null,
    });
  };
  const fail = (error: unknown) => {
    update({ state: online.get() ? 'error' : 'offline', error: codeOf(error) });
    retryLater(error);
  };
  const succeeded = () => {
    retryDelay = RETRY.firstMs;
  };
  /** One retry at a time, with back-off (RETRY); offline, the online event syncs instead. */
  function retryLater(error: unknown): void {
    if (cancelRetry || codeOf(error) === '401' || !online.get() || !options.member()) return;
    const delay = retryDelay;
    retryDelay = Math.min(retryDelay * 2, RETRY.maxMs);
    cancelRetry = schedule(() => {
      cancelRetry = null;
      if (online.get() && options.member()) background(sync);
    }, delay);
  }

  async function flushOnce(): Promise<FlushReport> {
    const member = memberOrThrow();
    update({ state: 'syncing' });
    const report = await flushOutbox(db, api, {
      memberId: member,
      clientId: await deviceId(),
      now,
      ...(options.batch ? { batch: options.batch } : {}),
    });
    update({ pending: report.pending });
    if (report.error) fail(report.error);
    else {
      // An empty outbox proves nothing about the server: only answers reset the back-off.
      if (report.answered > 0) succeeded();
      update({ state: 'idle', error: null });
    }
    return report;
  }

  /** Flushes already running absorb later requests: one more pass runs after them, not one per request. */
  function flush(): Promise<FlushReport> {
    if (flushing) {
      again = true;
      return flushing;
    }
    const run = (async () => {
      try {
        let report = await flushOnce();
        while (again && !report.error) {
          again = false;
          report = await flushOnce();
        }
        return report;
      } finally {
        again = false;
        flushing = undefined;
      }
    })();
    flushing = run;
    return run;
  }

  async function pullOnce(): Promise<number> {
    const member = memberOrThrow();
    update({ state: 'syncing' });
    try {
      let finished: number | null = null;
      const applied = await pullChanges(db, api, member, () => (finished = now()));
      // The member may have signed out while the pages arrived: their time is not the next member's.
      if (options.member() === member) update({ state: 'idle', error: null, lastSync: finished });
      succeeded();
      return applied;
    } catch (error) {
      fail(error);
      throw error;
    }
  }

  function pull(): Promise<number> {
    if (pulling) {
      pullAgain = true;
      return pulling;
    }
    const run = (async () => {
      try {
        let applied = await pullOnce();
        while (pullAgain) {
          pullAgain = false;
          applied += await pullOnce();
        }
        return applied;
      } finally {
        pullAgain = false;
        pulling = undefined;
      }
    })();
    pulling = run;
    return run;
  }

  async function sync(): Promise<void> {
    const report = await flush();
    if (report.error) return;
    await pull();
  }

  const background = (work: () => Promise<unknown>) => {
    // Failures are already in the status; an unhandled rejection would only add noise.
    work().catch(() => undefined);
  };

  return {
    status,
    db,
    async enqueue(name, args) {
      const member = memberOrThrow();
      const id = newId();
      await enqueue(db, { id, memberId: member, name, args: args ?? {}, createdAt: now() });
      // Counted, not recounted: an index count is linear in the outbox, which may hold thousands.
      update({ pending: status.get().pending + 1 });
      if (online.get()) background(flush);
      return id;
    },
    flush,
    pull,
    requestPull() {
      if (options.member() && online.get()) background(pull);
    },
    refresh: refreshPending,
    sync,
    result: (id) => db.results.get(id),
    start() {
      const follow = () => {
        const onChange = () => {
          if (!online.get()) update({ state: 'offline' });
          else if (options.member()) background(sync);
        };
        const stop = online.subscribe(onChange);
        // What a previous session left in the outbox shows at once, before any flush.
        background(refreshPending);
        onChange();
        return stop;
      };
      return options.leader ? options.leader(follow) : follow();
    },
  };
}
