/**
 * The app's one sync engine: the app's API client, the 'strata-device' database, the browser's online
 * events, the signed-in member of the user store, and the tab election of src/pwa (only the leader follows
 * online events). `startAppSync()` is meant to be called once at start (after startPwa in src/main.tsx);
 * it also syncs when a member signs in, so their replica and any outbox left from before catch up at once.
 */
import { api, onWrite } from '../api';
import { userStore } from '../state/user-store';
import { onLeadership } from '../pwa/leadership';
import { onDemoChange } from '../lib/demo-events';
import { sharedSyncStatus, useSyncStatus as useEngineStatus } from './status';
import { forgetMember } from './replica';
import { appDeviceDb } from './device';
import { browserOnline, createSyncEngine, type SyncEngine, type SyncStatus } from './sync-engine';

let instance: SyncEngine | undefined;

export function appSync(): SyncEngine {
  if (instance) return instance;
  const created = createSyncEngine({
    api,
    db: appDeviceDb(),
    online: browserOnline(),
    member: () => userStore.get()?.id ?? null,
    leader: onLeadership,
  });
  // The shell reads the status from the shared store (src/sync/status.ts), without loading Dexie. The first
  // copy waits for a microtask: a screen's render may be what creates the engine (useCached), and updating
  // the shell's chip from inside another component's render is what React forbids.
  queueMicrotask(() => sharedSyncStatus.set(created.status.get()));
  created.status.subscribe(() => sharedSyncStatus.set(created.status.get()));
  instance = created;
  return created;
}

interface Members {
  get(): { id: string } | null;
  subscribe(listener: () => void): () => void;
}

/** The feed's account events: each says the member's records changed on the server (API.md "Real-time feed"). */
export const ACCOUNT_EVENTS: ReadonlySet<string> = new Set([
  'balance',
  'order',
  'position',
  'withdrawal',
  'deposit',
  // A price alert set, fired or cancelled, and a notice (the notification centre reads both from the replica).
  'alert',
  'notice',
]);

/** What else asks for a pull: the window regaining focus, a demo fast-forward, the feed's account events. */
export type PullTrigger = (pull: () => void) => () => void;

export const focusTrigger: PullTrigger = (pull) => {
  if (typeof window === 'undefined') return () => undefined;
  const onVisible = () => {
    if (document.visibilityState === 'visible') pull();
  };
  window.addEventListener('focus', pull);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('focus', pull);
    document.removeEventListener('visibilitychange', onVisible);
  };
};

export const demoTrigger: PullTrigger = (pull) => onDemoChange(pull);

/** The member's own writes (transfers, orders, cards...): the replica shows their outcome at once. */
export const writeTrigger: PullTrigger = (pull) => onWrite(() => pull());

/** The page's feed (loaded lazily, so the socket code is not in the start-up path). */
export const feedTrigger: PullTrigger = (pull) => {
  let stop: (() => void) | undefined;
  let stopped = false;
  void import('../lib/feed')
    .then(({ loadFeed }) => loadFeed())
    .then(({ feedActor }) => {
      if (stopped) return;
      const subscription = feedActor().on('message', (event) => {
        if (ACCOUNT_EVENTS.has(event.message.type)) pull();
      });
      stop = () => subscription.unsubscribe();
    });
  return () => {
    stopped = true;
    stop?.();
  };
};

/**
 * Not a pull trigger but started with them, off /home's critical path: notices arriving while the page is
 * hidden become system notifications, once the member turned them on (src/lib/system-notices.ts).
 */
export const systemNoticesFollower: PullTrigger = () => {
  let stop: (() => void) | undefined;
  let stopped = false;
  void import('../lib/system-notices').then(({ startSystemNotices }) => {
    if (!stopped) stop = startSystemNotices();
  });
  return () => {
    stopped = true;
    stop?.();
  };
};

/**
 * Starts following online events, sign-ins and the pull triggers; answers the function that stops them all.
 * A sign-in (or a switch of member) re-reads the pending count and last sync time, then syncs.
 */
export function startAppSync(
  sync: SyncEngine = appSync(),
  users: Members = userStore,
  triggers: readonly PullTrigger[] = [
    focusTrigger,
    demoTrigger,
    feedTrigger,
    writeTrigger,
    systemNoticesFollower,
  ],
): () => void {
  const stopFollowing = sync.start();
  let member = users.get()?.id ?? null;
  const stopWatching = users.subscribe(() => {
    const next = users.get()?.id ?? null;
    if (next === member) return;
    member = next;
    sync.refresh().catch(() => undefined);
    if (next && sync.status.get().state !== 'offline') sync.sync().catch(() => undefined);
  });
  const stopTriggers = triggers.map((trigger) => trigger(() => sync.requestPull()));
  return () => {
    for (const stop of stopTriggers) stop();
    stopWatching();
    stopFollowing();
  };
}

/** Logout (after its confirmation): clears what this device keeps for the member, then the status. */
export async function forgetMemberData(memberId: string, sync: SyncEngine = appSync()): Promise<void> {
  await forgetMember(sync.db, memberId);
  await sync.refresh();
}

/** The sync status of one engine (tests); screens use src/sync/status.ts's shared copy. */
export function useSyncStatus(sync: SyncEngine = appSync()): SyncStatus {
  return useEngineStatus(sync.status);
}
