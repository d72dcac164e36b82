/**
 * Build-time configuration: VITE_API_MODE ('demo', the default, answers in-process from the engine; 'live'
 * calls VITE_API_BASE over HTTP) and the API host that relative image paths resolve against.
 */

export type ApiMode = 'demo' | 'live';

export function apiMode(): ApiMode {
  return import.meta.env.VITE_API_MODE === 'live' ? 'live' : 'demo';
}

export function isDemoMode(): boolean {
  return apiMode() === 'demo';
}

/** The API host; in demo mode (and when unset) the page's own origin. Never ends with a slash. */
export function apiBase(): string {
  const configured = import.meta.env.VITE_API_BASE;
  const base =
    typeof configured === 'string' && configured !== ''
      ? configured
      : typeof location !== 'undefined'
        ? location.origin
        : 'http://localhost';
  return base.replace(/\/+$/, '');
}

export const HTTP_TIMEOUT_MS = 12_000;

/** A fixed seed so every demo install shows the same simulated market and addresses (API.md). */
export const DEMO_SEED = 20_260_101;
export const DEMO_STORAGE = 'strata-demo';
