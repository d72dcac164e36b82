/** /user's "hide balances" switch, remembered on this device (localStorage), shared by every open tab. */
import { useSyncExternalStore } from 'react';
import { forgetSnapshots } from '../../lib/snapshot';
import { readString, removeKey, STORAGE_KEYS, writeString } from '../../lib/storage';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === STORAGE_KEYS.hideBalances) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

const read = () => readString(STORAGE_KEYS.hideBalances) === '1';

export function setBalancesHidden(hidden: boolean): void {
  if (hidden) {
    writeString(STORAGE_KEYS.hideBalances, '1');
    // The screens kept for the shell (src/lib/snapshot.ts) hold the figures: the next start must not show them.
    forgetSnapshots();
  } else removeKey(STORAGE_KEYS.hideBalances);
  for (const listener of listeners) listener();
}

export function useBalancesHidden(): boolean {
  return useSyncExternalStore(subscribe, read, () => false);
}
