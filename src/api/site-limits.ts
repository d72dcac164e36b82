/**
 * The business constants screens check before sending (minimum transfer and withdrawal, fees, VIP prices),
 * read once from the engine's config through GET /api/site/getsite (`limits`, API.md "Site config"), never
 * copied into the app. The last answer is kept in localStorage so an offline start still shows the rules;
 * until one is known, screens leave the check to the engine (which judges every call anyway).
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { SiteLimits } from '../../engine/index';
import { api } from './index';

const KEY = 'strata.siteLimits';
const listeners = new Set<() => void>();
let current: SiteLimits | null = read();
let pending: Promise<void> | null = null;

function read(): SiteLimits | null {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as SiteLimits) : null;
  } catch {
    return null;
  }
}

function set(limits: SiteLimits): void {
  current = limits;
  try {
    localStorage.setItem(KEY, JSON.stringify(limits));
  } catch {
    // Storage full or unavailable: the limits still apply for this session.
  }
  for (const listener of listeners) listener();
}

/** Asks the engine for the site config once per session (again after a failure). */
export function loadSiteLimits(): Promise<void> {
  pending ??= api
    .call('/api/site/getsite', undefined, { auth: false, silent: true })
    .then((site) => set(site.limits))
    .catch(() => {
      pending = null;
    });
  return pending;
}

export function siteLimits(): SiteLimits | null {
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The site's limits for a screen: the last known ones at once, refreshed from the engine. */
export function useSiteLimits(): SiteLimits | null {
  useEffect(() => {
    void loadSiteLimits();
  }, []);
  return useSyncExternalStore(subscribe, siteLimits, siteLimits);
}

/** Tests: forget what was loaded. */
export function resetSiteLimits(): void {
  current = null;
  pending = null;
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}
