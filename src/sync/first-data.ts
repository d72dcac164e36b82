/**
 * Live mode's first data: the page the server sends for a navigation carries /api/market/list's answer and
 * the server's time (server/http/app-page.ts); when the device database opens it is written into the device
 * cache under the call's own key (`p:quotes`) with its time, so screens keep reading only the device and
 * /home and /market render before any call is answered. The device's copy wins when as new or newer.
 * docs/PWA.md "Live mode: first data in the HTML".
 */
import type { Quote } from '../../engine/index';
import { putCache, publicCacheKey } from './cache';
import type { CacheRow, DeviceDb } from './db';

export const FIRST_DATA_ID = 'strata-first-data';

/** What the page carries: each call's `data` (by contract path) and when the server read it (Unix seconds). */
export interface FirstData {
  time: number;
  answers: Record<string, unknown>;
}

/** The inlined calls and the device cache entries their answers are kept under (src/lib/use-quotes.ts). */
const CACHE_KEYS: Readonly<Record<string, string>> = { '/api/market/list': 'quotes' };

function isQuoteList(value: unknown): value is { list: Quote[] } {
  const list = (value as { list?: unknown } | null)?.list;
  return (
    Array.isArray(list) &&
    list.every(
      (q) =>
        typeof (q as Quote | null)?.symbol === 'string' &&
        typeof (q as Quote).latest === 'string' &&
        typeof (q as Quote).time === 'number',
    )
  );
}

/** The page's first data, or null (none, demo mode's page, or anything malformed). */
export function readFirstData(doc: Document | undefined = globalThis.document): FirstData | null {
  const text = doc?.getElementById(FIRST_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<FirstData> | null;
    if (
      !parsed ||
      typeof parsed.time !== 'number' ||
      !Number.isFinite(parsed.time) ||
      typeof parsed.answers !== 'object' ||
      parsed.answers === null
    )
      return null;
    return { time: parsed.time, answers: parsed.answers };
  } catch {
    return null;
  }
}

/** When a kept quote list's prices are of (Unix seconds): its newest quote, else when it was fetched. */
function pricesTime(value: unknown, fetchedAtMs: number): number {
  const times = isQuoteList(value) ? value.list.map((q) => q.time) : [];
  return times.length > 0 ? Math.max(...times) : Math.floor(fetchedAtMs / 1000);
}

/**
 * Writes the page's answers into the device cache, each only where the device has nothing as new (one
 * transaction: a screen's read made after this call sees the result). Resolves with the keys written.
 */
export async function seedFirstData(db: DeviceDb, data: FirstData): Promise<string[]> {
  const written: string[] = [];
  for (const [path, key] of Object.entries(CACHE_KEYS)) {
    const value = data.answers[path];
    if (!isQuoteList(value)) continue;
    const full = publicCacheKey(key);
    const at = data.time * 1000;
    await db.transaction('rw', db.cache, async () => {
      const kept: CacheRow | undefined = await db.cache.get(full);
      if (kept && pricesTime(kept.value, kept.at) >= pricesTime(value, at)) return;
      await putCache(db, full, 'data', value, at);
      written.push(full);
    });
  }
  return written;
}
