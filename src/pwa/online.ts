/** navigator.onLine as a React value. "Online" only means a network exists; the transport still handles timeouts. */
import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  addEventListener('online', listener);
  addEventListener('offline', listener);
  return () => {
    removeEventListener('online', listener);
    removeEventListener('offline', listener);
  };
}

const isOnline = () => navigator.onLine;
const serverSnapshot = () => true;

export function useOnlineStatus(): boolean {
  return useSyncExternalStore(subscribe, isOnline, serverSnapshot);
}
