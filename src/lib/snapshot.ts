/**
 * The last screen as the member saw it: when the page is hidden (the member switches away or closes it), the
 * figures of the screen on display are kept in localStorage as the markup React rendered, and the build-time
 * shell's inline script (scripts/shell-html.ts) puts them back before the first paint of the next visit to
 * the same route, in the same language, by the same member. React then takes over with the device's own
 * data (the screens' `warm` reads), which is the same data or newer. docs/PWA.md "The last screen".
 *
 * A region is an element marked `data-snapshot="<name>"` in both the shell's loading layout and the screen's
 * rendered one. It is kept only when it shows data: a marked first-data figure (`elementtiming`) with a digit
 * in it, and nothing still loading (`aria-busy="true"`, a skeleton, a spinner).
 */
import {
  readString,
  removeKey,
  removeKeysWithPrefix,
  SNAPSHOT_VERSION,
  STORAGE_KEYS,
  writeString,
} from './storage';

export interface Snapshot {
  v: typeof SNAPSHOT_VERSION;
  /** `<html lang>` when it was taken: another language's markup is never shown. */
  lang: string;
  /** The stored member's id, '' for a guest: another member's figures are never shown. */
  who: string;
  /** When it was taken (ms). */
  at: number;
  /** Region name -> its inner markup. */
  parts: Record<string, string>;
}

/** The route as the shell script names it: lower case, no trailing slash, `/` is `/home`. */
export function snapshotRoute(pathname: string): string {
  const p = pathname.replace(/\/+$/, '').toLowerCase() || '/';
  return p === '/' ? '/home' : p;
}

const REGION_NAME = /^[\w-]+$/;

function loading(region: Element): boolean {
  return region.querySelector('[aria-busy="true"], .quote-skeleton, .skeleton-bar, .spinner') !== null;
}

function showsData(region: Element): boolean {
  const figure = region.querySelector('[elementtiming]');
  return !loading(region) && figure !== null && /\d/.test(figure.textContent ?? '');
}

function storedMember(): string {
  try {
    const raw: unknown = JSON.parse(readString(STORAGE_KEYS.user) ?? 'null');
    const id = raw && typeof raw === 'object' && 'id' in raw ? raw.id : undefined;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
  } catch {
    return '';
  }
}

/**
 * Keeps the regions of the screen on display that show data. A screen still loading leaves what was kept for
 * the route; one that shows something else now (hidden balances, an error, nothing to list) drops it.
 */
export function takeSnapshot(doc: Document = document, now: number = Date.now()): void {
  const key = STORAGE_KEYS.snapshot + snapshotRoute(doc.location.pathname) + doc.location.search;
  const parts: Record<string, string> = {};
  let changed = false;
  for (const region of doc.querySelectorAll('#root [data-snapshot]')) {
    const name = region.getAttribute('data-snapshot') ?? '';
    if (!REGION_NAME.test(name)) continue;
    if (showsData(region)) parts[name] = region.innerHTML;
    else if (!loading(region)) changed = true;
  }
  if (Object.keys(parts).length === 0) {
    if (changed) removeKey(key);
    return;
  }
  const snapshot: Snapshot = {
    v: SNAPSHOT_VERSION,
    lang: doc.documentElement.lang,
    who: storedMember(),
    at: now,
    parts,
  };
  // The query is part of the screen (/market?view=favourites&sort=...): a kept screen is put back for the same.
  writeString(key, JSON.stringify(snapshot));
}

/** Every kept screen goes (logout: the next member of this device must not see them first). */
export function forgetSnapshots(): void {
  removeKeysWithPrefix(STORAGE_KEYS.snapshot);
}

/** Takes a snapshot whenever the page is hidden or left; returns the way to stop. */
export function keepSnapshots(): () => void {
  const onHide = () => {
    if (document.visibilityState === 'hidden') takeSnapshot();
  };
  const onPageHide = () => takeSnapshot();
  document.addEventListener('visibilitychange', onHide);
  window.addEventListener('pagehide', onPageHide);
  return () => {
    document.removeEventListener('visibilitychange', onHide);
    window.removeEventListener('pagehide', onPageHide);
  };
}
