/**
 * The global popups (customer service, language, theme, demo info, session expired). One at a time; the
 * session-expired dialog wins over any other and is never shown twice at once (SPEC.md §4).
 */
import { useSyncExternalStore } from 'react';

export type PopupName = 'service' | 'language' | 'theme' | 'demo' | 'sessionExpired';

let current: PopupName | null = null;
let sessionWaiters: (() => void)[] = [];
const listeners = new Set<() => void>();

function set(next: PopupName | null): void {
  current = next;
  for (const l of listeners) l();
}

export const popupStore = {
  get: (): PopupName | null => current,
  open(name: Exclude<PopupName, 'sessionExpired'>): void {
    if (current !== 'sessionExpired') set(name);
  },
  close(): void {
    const wasSession = current === 'sessionExpired';
    set(null);
    if (wasSession) {
      const waiters = sessionWaiters;
      sessionWaiters = [];
      for (const w of waiters) w();
    }
  },
  /** Opens the session-expired dialog; null when it is already open (one at a time). */
  openSessionExpired(): Promise<void> | null {
    if (current === 'sessionExpired') return null;
    set('sessionExpired');
    return new Promise((resolve) => sessionWaiters.push(resolve));
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function usePopup(): PopupName | null {
  return useSyncExternalStore(popupStore.subscribe, popupStore.get, popupStore.get);
}
