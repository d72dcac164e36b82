/**
 * The app's one sync engine: the app's API client, the 'strata-device' database, the browser's online
 * events, the signed-in member of the user store, and the tab election of src/pwa (only the leader follows
 * online events). `startAppSync()` is meant to be called once at start (next to startPwa in src/main.tsx);
 * it also syncs when a member signs in, so their replica and any outbox left from before catch up at once.
 */
import { useSyncExternalStore } from 'react';
import { api } from '../api';
import { userStore } from '../app/user-store';
import { onDatabaseUpgrade } from '../pwa/db-upgrade';
import { onLeadership } from '../pwa/leadership';
import { openDeviceDb, type DeviceDb } from './db';
import { browserOnline, createSyncEngine, type SyncEngine, type SyncStatus } from './sync-engine';

let instance: SyncEngine | undefined;
let deviceDb: DeviceDb | undefined;

/** A newer version upgrading the device database closes this tab's connection and reloads it into the new one. */
function upgradable<T extends Parameters<typeof onDatabaseUpgrade>[0]>(db: T): T {
  onDatabaseUpgrade(db);
  return db;
}

/** The device database the app's sync engine works on (outbox, results, replica). */
export function appDeviceDb(): DeviceDb {
  deviceDb ??= upgradable(openDeviceDb());
  return deviceDb;
}

export function appSync(): SyncEngine {
  instance ??= createSyncEngine({
    api,
    db: appDeviceDb(),
    online: browserOnline(),
    member: () => userStore.get()?.id ?? null,
    leader: onLeadership,
  });
  return instance;
}

/** Starts following online events and sign-ins; answers the function that stops both. */
interface Members {
  get(): { id: string } | null;
  subscribe(listener: () => void): () => void;
}

export function startAppSync(sync: SyncEngine = appSync(), users: Members = userStore): () => void {
  const stopFollowing = sync.start();
  let member = users.get()?.id ?? null;
  const stopWatching = users.subscribe(() => {
    const next = users.get()?.id ?? null;
    if (next === member) return;
    member = next;
    if (next && sync.status.get().state !== 'offline') sync.sync().catch(() => undefined);
  });
  return () => {
    stopWatching();
    stopFollowing();
  };
}

/** The sync status for a screen: state (idle, syncing, offline, error), pending count, last error code. */
export function useSyncStatus(sync: SyncEngine = appSync()): SyncStatus {
  return useSyncExternalStore(sync.status.subscribe, sync.status.get, sync.status.get);
}
