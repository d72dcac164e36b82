/**
 * The device half of sync: queue mutations while offline (or always), replay them when the device comes back
 * online, then pull what changed. The lifecycle (pushing, pulling, offline, retries with back-off) is the sync
 * machine (src/machines/sync.ts); this adapter runs its actor, feeds it the browser's events and the outbox's
 * changes, and answers the promises callers await. Status (idle, syncing, offline, error, pending count) is
 * a tiny store for the UI (useSyncExternalStore-shaped).
 *
 * Only the leader tab answers online events (pass `leader: onLeadership` from src/pwa/leadership); any tab
 * may enqueue and flush, since the server applies each mutation id at most once however often it is pushed.
 */
import { createActor, type ActorOptions, type AnyActorLogic } from 'xstate';
import type { ApiClient } from '../api/client';
import { syncMachine, syncStatus, type SyncEmitted, type SyncStatus } from '../machines/sync';
import { SignedOutError, syncEffects } from '../machines/sync-effects';
import { valueStore, type ValueStore } from '../pwa/store';
import type { DeviceDb, StoredResult } from './db';
import { enqueue, pendingCount, type FlushReport } from './outbox';
import { lastPulledAt } from './replica';

export { RETRY, type SyncState, type SyncStatus } from '../machines/sync';

export interface OnlineSource {
  get(): boolean;
  subscribe(listener: () => void): () => void;
}

/** navigator.onLine and the window's online/offline events. */
export function browserOnline(): OnlineSource {
  return {
    get: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
    subscribe: (listener) => {
      // Pre-rendering at build time runs outside a browser: there is no network to follow.
      if (typeof window === 'undefined') return () => undefined;
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

type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/** The machine's delays on `schedule` (the retry timer is its only one). */
function scheduleClock(schedule: (task: () => void, ms: number) => () => void): Clock {
  return {
    setTimeout: (task: () => void, ms: number) => schedule(task, ms),
    clearTimeout: (cancel: unknown) => {
      if (typeof cancel === 'function') cancel();
    },
  };
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { api, db, online } = options;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const now = options.now ?? (() => Date.now());
  const signedIn = () => options.member() !== null;
  const machine = syncMachine.provide({
    actors: syncEffects({
      api,
      db,
      member: options.member,
      newId,
      now,
      ...(options.batch ? { batch: options.batch } : {}),
    }),
  });
  const actor = createActor(machine, {
    input: { online: online.get() },
    clock: scheduleClock(options.schedule ?? defaultSchedule),
  });
  const status = valueStore<SyncStatus>(syncStatus(actor.getSnapshot()));
  actor.subscribe((snapshot) => {
    const next = syncStatus(snapshot);
    const current = status.get();
    if (
      next.state !== current.state ||
      next.pending !== current.pending ||
      next.error !== current.error ||
      next.lastSync !== current.lastSync
    )
      status.set(next);
  });
  actor.start();
  // Every tab's status follows the network; only the leader syncs on reconnect (FOLLOW, in start()).
  online.subscribe(() =>
    actor.send(online.get() ? { type: 'ONLINE', signedIn: signedIn() } : { type: 'OFFLINE' }),
  );

  /** The end of the run in progress (or the one `event` starts): a request joins it, as one more pass. */
  function runEnd<T>(
    event: { type: 'PUSH' } | { type: 'PULL' },
    settle: (emitted: SyncEmitted) => { value: T } | { error: unknown } | null,
  ): Promise<T> {
    if (!signedIn()) return Promise.reject(new SignedOutError());
    return new Promise<T>((resolve, reject) => {
      const subscription = actor.on('*', (emitted) => {
        const outcome = settle(emitted);
        if (!outcome) return;
        subscription.unsubscribe();
        if ('value' in outcome) resolve(outcome.value);
        else reject(outcome.error);
      });
      actor.send(event);
    });
  }

  const flush = () =>
    runEnd<FlushReport>({ type: 'PUSH' }, (e) =>
      e.type === 'pushed' ? { value: e.report } : e.type === 'pushFailed' ? { error: e.error } : null,
    );
  const pull = () =>
    runEnd<number>({ type: 'PULL' }, (e) =>
      e.type === 'pullEnded' ? { value: e.applied } : e.type === 'pullFailed' ? { error: e.error } : null,
    );

  async function sync(): Promise<void> {
    const report = await flush();
    if (report.error) return;
    await pull();
  }

  const refresh = async () => {
    const member = options.member();
    actor.send({
      type: 'REFRESHED',
      pending: member ? await pendingCount(db, member) : 0,
      lastSync: member ? await lastPulledAt(db, member) : null,
    });
  };

  return {
    status,
    db,
    async enqueue(name, args) {
      const member = options.member();
      if (!member) throw new SignedOutError();
      const id = newId();
      await enqueue(db, { id, memberId: member, name, args: args ?? {}, createdAt: now() });
      // Counted, not recounted: an index count is linear in the outbox, which may hold thousands.
      actor.send({ type: 'ENQUEUED' });
      return id;
    },
    flush,
    pull,
    requestPull() {
      actor.send({ type: 'STALE', signedIn: signedIn() });
    },
    refresh,
    sync,
    result: (id) => db.results.get(id),
    start() {
      const follow = () => {
        // What a previous session left in the outbox shows at once, before any flush.
        refresh().catch(() => undefined);
        actor.send({ type: 'FOLLOW', signedIn: signedIn() });
        return () => actor.send({ type: 'UNFOLLOW' });
      };
      return options.leader ? options.leader(follow) : follow();
    },
  };
}
