/**
 * The sync status as the shell reads it, without loading the device database: the sync engine (created
 * lazily, after first paint) mirrors its status here, so the top bar's chip and banner cost the first
 * screen no IndexedDB code.
 */
import { useSyncExternalStore } from 'react';
import { valueStore } from '../pwa/store';
import type { SyncStatus } from './sync-engine';

export interface StatusSource {
  get(): SyncStatus;
  subscribe(listener: () => void): () => void;
}

export const sharedSyncStatus = valueStore<SyncStatus>({
  state: typeof navigator !== 'undefined' && !navigator.onLine ? 'offline' : 'idle',
  pending: 0,
  error: null,
  lastSync: null,
});

/** The sync status for a screen: state (idle, syncing, offline, error), pending count, last sync time. */
export function useSyncStatus(source: StatusSource = sharedSyncStatus): SyncStatus {
  return useSyncExternalStore(source.subscribe, source.get, source.get);
}
