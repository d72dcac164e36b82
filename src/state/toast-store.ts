/** Global toasts (SPEC.md §9: 2,000 ms), rendered by <Toaster> in an aria-live region. */
import { useSyncExternalStore } from 'react';

export type ToastTone = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  text: string;
  tone: ToastTone;
}

export const TOAST_MS = 2_000;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function set(next: readonly Toast[]): void {
  toasts = next;
  for (const l of listeners) l();
}

export const toastStore = {
  show(text: string, tone: ToastTone = 'info', durationMs = TOAST_MS): number {
    const id = nextId++;
    // The same text twice in a row (two failing calls) shows once.
    set([...toasts.filter((t) => t.text !== text), { id, text, tone }]);
    setTimeout(() => toastStore.dismiss(id), durationMs);
    return id;
  },
  dismiss(id: number): void {
    if (toasts.some((t) => t.id === id)) set(toasts.filter((t) => t.id !== id));
  },
  get: (): readonly Toast[] => toasts,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(toastStore.subscribe, toastStore.get, toastStore.get);
}
