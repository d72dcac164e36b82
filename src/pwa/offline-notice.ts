/**
 * One offline notice per page (issue 26): the shell's banner (OnlineIndicator) is the only one. A screen whose
 * writes wait or whose figures may age (a form, a price) mounts `<OfflineNote />`, which adds nothing of its own
 * to the page but tells the banner to say so too ("nothing will be sent until you are back online"). This
 * is the count of such screens mounted now, as a tiny external store.
 */
import { useEffect, useSyncExternalStore } from 'react';

let mounted = 0;
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** While the calling component is mounted, the shell's offline banner names what waits. */
export function useOfflineDetail(): void {
  useEffect(() => {
    mounted += 1;
    changed();
    return () => {
      mounted -= 1;
      changed();
    };
  }, []);
}

/** True while a screen asked the banner to say that sending waits for the connection. */
export function useOfflineDetailWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => mounted > 0,
    () => false,
  );
}
