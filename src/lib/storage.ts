/**
 * localStorage access that never throws: private modes and full quotas must not break the app, they only
 * lose the stored value. Every key the app uses is listed here so they do not collide.
 */

export const STORAGE_KEYS = {
  user: 'strata.user',
  lang: 'strata.lang',
  theme: 'strata.theme',
  /** `<prefix><memberId>`: the newest notice id the member has seen in the notification centre. */
  noticesSeen: 'strata.noticesSeen.',
  /** "1": /user hides its balances on this device. */
  hideBalances: 'strata.hideBalances',
  /** "1" once the member chose "don't show again" on the leveraged order confirmation (trade screen). */
  skipOrderConfirm: 'strata.trade.skipConfirm',
  /** `<prefix><route>`: the route's last screen as shown (src/lib/snapshot.ts), put back by the shell. */
  snapshot: 'strata.snap:',
} as const;

/** The shape of a kept screen (src/lib/snapshot.ts); the shell script ignores any other version. */
export const SNAPSHOT_VERSION = 1;

export function readString(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage unavailable or full: the value lives only for this page view.
  }
}

export function removeKey(key: string): void {
  try {
    globalThis.localStorage?.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

/** Removes every key that starts with `prefix` (e.g. every kept screen at logout). */
export function removeKeysWithPrefix(prefix: string): void {
  try {
    const storage = globalThis.localStorage;
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    keys.forEach(removeKey);
  } catch {
    // No storage: nothing was kept.
  }
}

/** Reads JSON and validates it with `parse`, which returns undefined for anything malformed. */
export function readJSON<T>(key: string, parse: (raw: unknown) => T | undefined): T | undefined {
  const text = readString(key);
  if (text === null) return undefined;
  try {
    return parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

export function writeJSON(key: string, value: unknown): void {
  writeString(key, JSON.stringify(value));
}
