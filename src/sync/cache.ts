/**
 * The device cache for what is not a replicated record: public data (help articles, VIP levels, products,
 * mining machines, quotes, order books, K-lines) and the few member answers that are computed live by the
 * server (deposit addresses, the invite summary, open positions, the asset valuation). Each entry keeps the
 * time it was fetched; a screen reads the entry through useLiveQuery, so it shows the last answer at once,
 * offline too, and asks the server for a fresh one in the background.
 *
 * Member entries are keyed under the member's id and cleared with the rest of their data at logout.
 * K-line series are bounded (MAX_CANDLES each, MAX_SERIES series; the least recently used goes first).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useUser } from '../state/user-store';
import { onDemoChange } from '../lib/demo-events';
import { toFailure, type Failure } from '../machines/failure';
import { appDeviceDb } from './device';
import type { CacheRow, DeviceDb } from './db';

export const MAX_CANDLES = 1000;
export const MAX_SERIES = 20;

export function memberCacheKey(memberId: string, key: string): string {
  return `m:${memberId}:${key}`;
}

export function publicCacheKey(key: string): string {
  return `p:${key}`;
}

/** Stores an answer with its time; K-line series are trimmed and the least recently used evicted. */
export async function putCache(
  db: DeviceDb,
  key: string,
  kind: string,
  value: unknown,
  at: number = Date.now(),
): Promise<void> {
  const stored = kind === 'kline' && Array.isArray(value) ? value.slice(-MAX_CANDLES) : value;
  await db.transaction('rw', db.cache, async () => {
    await db.cache.put({ key, kind, value: stored, at, used: at });
    if (kind === 'kline') await evict(db, kind, MAX_SERIES);
  });
}

/** Keeps the `keep` most recently used entries of `kind`. */
export async function evict(db: DeviceDb, kind: string, keep: number): Promise<void> {
  const count = await db.cache.where('kind').equals(kind).count();
  if (count <= keep) return;
  const oldest = await db.cache
    .where('[kind+used]')
    .between([kind, -Infinity], [kind, Infinity])
    .limit(count - keep)
    .primaryKeys();
  await db.cache.bulkDelete(oldest);
}

/** Marks an entry as just used (a screen opened it), so eviction keeps it. */
export async function touchCache(db: DeviceDb, key: string, at: number = Date.now()): Promise<void> {
  await db.cache.update(key, { used: at });
}

export async function readCache(db: DeviceDb, key: string): Promise<CacheRow | undefined> {
  return db.cache.get(key);
}

/** Every cache entry of the member (logout). */
export async function forgetMemberCache(db: DeviceDb, memberId: string): Promise<void> {
  await db.cache.where('key').startsWith(memberCacheKey(memberId, '')).delete();
}

const lastWrites = new Map<string, number>();

/**
 * Keeps a value the feed streams (quotes, an order book) as the public cache entry `key`, at most once every
 * `everyMs`: the device keeps the last of them with its time without writing IndexedDB ten times a second.
 */
export function useCacheWriter(key: string | null, value: unknown, everyMs = 5_000): void {
  useEffect(() => {
    if (key === null || value === null || value === undefined) return;
    const full = publicCacheKey(key);
    const now = Date.now();
    if (now - (lastWrites.get(full) ?? 0) < everyMs) return;
    lastWrites.set(full, now);
    void putCache(appDeviceDb(), full, 'data', value, now).catch(() => undefined);
  }, [key, value, everyMs]);
}

export type CachedResult<T> = (
  | { status: 'loading'; data: T | undefined; error: null }
  | { status: 'error'; data: T | undefined; error: Failure }
  | { status: 'ready'; data: T; error: null }
) & {
  /** Fetches again (the cache, and the screen with it, update when the answer arrives). */
  reload: () => void;
  /** When the data shown was fetched (ms), null while nothing is cached. */
  at: number | null;
  /** The last fetch failed: what is shown is the cached copy (may be stale). */
  stale: boolean;
};

export interface CachedOptions {
  /** Scoped to the signed-in member (cleared at logout). */
  member?: boolean;
  /** Groups entries for eviction ('kline'); 'data' otherwise. */
  kind?: string;
  /** A value that, when it changes, fetches again under the same key (e.g. a feed event counter). */
  refresh?: string | number;
}

/**
 * `key` names the answer (e.g. 'help:en-US', 'depth:BTC/USDT'); a null key reads nothing (a screen still
 * waiting for its parameters). `load` may be a fresh closure each render; `key` changes re-run it.
 */
/** Rows read ahead of the first render (`warmCached`), by full key: the first frame starts from them. */
const warmed = new Map<string, CacheRow | null>();

/**
 * Reads a public cache row before the first render (a screen's `warm`, src/app/routes.tsx), so `useCached`'s
 * first frame shows the device's copy instead of its loading state and the rows the shell put back from the
 * last screen (src/lib/snapshot.ts) are not replaced by loading rows in between.
 */
export async function warmCached(key: string): Promise<void> {
  const fullKey = publicCacheKey(key);
  warmed.set(fullKey, (await readCache(appDeviceDb(), fullKey)) ?? null);
}

export function useCached<T>(
  key: string | null,
  load: () => Promise<T>,
  options: CachedOptions = {},
): CachedResult<T> {
  const member = useUser()?.id ?? null;
  const scoped = options.member ?? false;
  const kind = options.kind ?? 'data';
  const fullKey =
    key === null || (scoped && member === null)
      ? null
      : scoped && member !== null
        ? memberCacheKey(member, key)
        : publicCacheKey(key);
  const db = appDeviceDb();
  const row = useLiveQuery(
    async () => (fullKey ? ((await db.cache.get(fullKey)) ?? null) : null),
    [db, fullKey],
    fullKey ? warmed.get(fullKey) : undefined,
  );
  // The read ahead serves the first frame only: a later visit to the screen reads the device afresh.
  useEffect(() => {
    if (fullKey) warmed.delete(fullKey);
  }, [fullKey]);
  const [fetchState, setFetchState] = useState<{ key: string | null; error: Failure | null; busy: boolean }>({
    key: null,
    error: null,
    busy: false,
  });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });

  useEffect(() => {
    if (!fullKey) return;
    let live = true;
    setFetchState({ key: fullKey, error: null, busy: true });
    void touchCache(db, fullKey).catch(() => undefined);
    loadRef.current().then(
      async (value) => {
        await putCache(db, fullKey, kind, value);
        if (live) setFetchState({ key: fullKey, error: null, busy: false });
      },
      (error: unknown) => live && setFetchState({ key: fullKey, error: toFailure(error), busy: false }),
    );
    return () => {
      live = false;
    };
  }, [db, fullKey, kind, nonce, options.refresh]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  // A demo fast-forward changes server state the way a push would: fetch the new state.
  useEffect(() => onDemoChange(reload), [reload]);

  const cached = row && row.key === fullKey ? row : undefined;
  const error = fetchState.key === fullKey ? fetchState.error : null;
  const at = cached ? cached.at : null;
  if (cached)
    return { status: 'ready', data: cached.value as T, error: null, reload, at, stale: error !== null };
  if (error && row !== undefined) return { status: 'error', data: undefined, error, reload, at, stale: true };
  return { status: 'loading', data: undefined, error: null, reload, at, stale: false };
}
