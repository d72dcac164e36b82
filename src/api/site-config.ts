/**
 * What the site says about itself, read from GET /api/site/getsite and never copied into the app (API.md
 * "Site config"): `limits` (what screens check before sending), `demo` (a live build served in demo mode says
 * "Demo" on every screen) and `quickBuy`. The last answer is kept in localStorage (`strata.site`) so an
 * offline start still shows the rules and the demo badge (index.html's head script sets
 * `<html data-site-demo>` from it); until one is known screens leave the checks to the engine. Asked again
 * when the connection returns. docs/DECISIONS.md "App".
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { SiteLimits } from '../../engine/index';
import { isDemoMode } from './config';
import { api } from './index';

export interface SiteConfig {
  demo: boolean;
  limits: SiteLimits;
}

/** localStorage key; index.html's head script reads `demo` from it before first paint. */
export const SITE_KEY = 'strata.site';
const listeners = new Set<() => void>();
let current: SiteConfig | null = read();
let pending: Promise<void> | null = null;
/** Whether a getsite call is on its way. */
let asking = false;
let quickBuy: boolean | null = null;

function read(): SiteConfig | null {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(SITE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<SiteConfig>) : null;
    return parsed && typeof parsed.demo === 'boolean' && parsed.limits ? (parsed as SiteConfig) : null;
  } catch {
    return null;
  }
}

function mark(demo: boolean): void {
  if (typeof document === 'undefined') return;
  if (demo) document.documentElement.dataset['siteDemo'] = '';
  else delete document.documentElement.dataset['siteDemo'];
}

function set(site: SiteConfig): void {
  current = site;
  try {
    localStorage.setItem(SITE_KEY, JSON.stringify(site));
  } catch {
    // Storage full or unavailable: the answer still applies for this session.
  }
  mark(isSiteDemo());
  for (const listener of listeners) listener();
}

/** Asks the engine for the site config once per session (again after a failure or a reconnect). */
export function loadSiteConfig(): Promise<void> {
  if (pending) return pending;
  asking = true;
  pending = api
    .call('/api/site/getsite', undefined, { auth: false, silent: true })
    .then((site) => {
      quickBuy = typeof site.quickBuy === 'boolean' ? site.quickBuy : null;
      set({ demo: site.demo, limits: site.limits });
    })
    .catch(() => {
      pending = null;
    })
    .finally(() => {
      asking = false;
    });
  return pending;
}

/** Asks the engine again, unless a call is already on its way: the answer may have changed since. */
function refreshSiteConfig(): Promise<void> {
  if (!asking) pending = null;
  return loadSiteConfig();
}

let watching = false;
/** Starts asking: now, and each time the connection returns (the server may have changed mode). */
export function watchSiteConfig(): void {
  mark(isSiteDemo());
  void loadSiteConfig();
  if (watching || typeof window === 'undefined') return;
  watching = true;
  window.addEventListener('online', () => {
    pending = null;
    void loadSiteConfig();
  });
}

export function siteLimits(): SiteLimits | null {
  return current?.limits ?? null;
}

/**
 * Whether this app talks to a simulation: the in-browser demo engine, or a server that answered getsite with
 * `demo: true` (now or, offline, the last time it was asked).
 */
export function isSiteDemo(): boolean {
  return isDemoMode() || current?.demo === true;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The site's limits for a screen: the last known ones at once, refreshed from the engine. */
export function useSiteLimits(): SiteLimits | null {
  useEffect(() => {
    void loadSiteConfig();
  }, []);
  return useSyncExternalStore(subscribe, siteLimits, siteLimits);
}

/** Whether to say "Demo" (badge, simulated-data notes): follows the site's answer as it arrives. */
export function useSiteDemo(): boolean {
  return useSyncExternalStore(subscribe, isSiteDemo, isSiteDemo);
}

/** Whether quick buy is available (getsite's `quickBuy`); null until the site has answered this session. */
export function siteQuickBuy(): boolean | null {
  return quickBuy;
}

/**
 * Quick buy's availability for /user/buycoin: the last answer at once, asked again on each mount (a server's
 * payment provider may have been connected or removed since); null until known.
 */
export function useSiteQuickBuy(): boolean | null {
  useEffect(() => {
    void refreshSiteConfig();
  }, []);
  return useSyncExternalStore(subscribe, siteQuickBuy, siteQuickBuy);
}

/** Tests: forget what was loaded. */
export function resetSiteConfig(): void {
  current = null;
  pending = null;
  quickBuy = null;
  mark(isDemoMode());
  try {
    localStorage.removeItem(SITE_KEY);
  } catch {
    // nothing stored
  }
  for (const listener of listeners) listener();
}
