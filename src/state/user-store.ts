/**
 * The locally kept user info of SPEC.md §3 ({id, token, username, vip, balance}), persisted as JSON in
 * localStorage. A tiny external store so React reads it with useSyncExternalStore and the session machine
 * (issue 5) can drive it from outside React.
 */
import { useSyncExternalStore } from 'react';
import { forgetSnapshots } from '../lib/snapshot';
import { STORAGE_KEYS, readJSON, removeKey, writeJSON } from '../lib/storage';

export interface LocalUser {
  id: string;
  token: string;
  username: string;
  /** 'vip0' .. 'vip6'; new accounts start at 'vip0'. */
  vip: string;
  /** A decimal string (API.md: amounts are never floats). */
  balance: string;
}

const DEFAULTS = { vip: 'vip0', balance: '0' } as const;

/** Accepts what login answers ({id, token, username, vip?, balance?}) and fills the defaults. */
export function toLocalUser(raw: unknown): LocalUser | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const id = typeof r.id === 'number' ? String(r.id) : r.id;
  if (typeof id !== 'string' || id === '') return undefined;
  const text = (v: unknown, fallback: string) =>
    typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback;
  return {
    id,
    token: text(r.token, ''),
    username: text(r.username, ''),
    vip: text(r.vip, DEFAULTS.vip) || DEFAULTS.vip,
    balance: text(r.balance, DEFAULTS.balance) || DEFAULTS.balance,
  };
}

type Listener = () => void;
const listeners = new Set<Listener>();
let current: LocalUser | null | undefined;

function load(): LocalUser | null {
  if (current === undefined) current = readJSON(STORAGE_KEYS.user, toLocalUser) ?? null;
  return current;
}

function emit(): void {
  for (const l of listeners) l();
}

export const userStore = {
  get: load,
  /** Stores the user after login or register (merging with what is stored, so a refresh can be partial). */
  set(next: Omit<Partial<LocalUser>, 'id'> & { id: string | number }): void {
    const merged = toLocalUser({ ...(load() ?? {}), ...next });
    if (!merged) return;
    current = merged;
    writeJSON(STORAGE_KEYS.user, merged);
    emit();
  },
  clear(): void {
    current = null;
    removeKey(STORAGE_KEYS.user);
    // The last screens kept for the shell: the next member of this device must not see them first.
    forgetSnapshots();
    emit();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Tests and a storage event from another tab re-read localStorage. */
  reload(): void {
    current = undefined;
    load();
    emit();
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === STORAGE_KEYS.user) userStore.reload();
  });
}

export function useUser(): LocalUser | null {
  return useSyncExternalStore(userStore.subscribe, userStore.get, userStore.get);
}

export function hasStoredUser(): boolean {
  return load() !== null;
}
