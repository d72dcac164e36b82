import { describe, expect, it } from 'vitest';
import { openDeviceDb } from '../../../src/sync/db';
import {
  MAX_CANDLES,
  MAX_SERIES,
  memberCacheKey,
  publicCacheKey,
  putCache,
  readCache,
  touchCache,
} from '../../../src/sync/cache';
import { forgetMember } from '../../../src/sync/replica';

let n = 0;
const fresh = () => openDeviceDb(`cache-test-${++n}`);
const candles = (count: number) => Array.from({ length: count }, (_, i) => ({ time: i, close: String(i) }));

describe('device cache of market data (docs/RULES.md Y11)', () => {
  it('Y11 keeps the last MAX_CANDLES candles of a series, with the time it was fetched', async () => {
    const db = fresh();
    await putCache(db, publicCacheKey('kline:BTC/USDT:1m'), 'kline', candles(MAX_CANDLES + 250), 5_000);
    const row = await readCache(db, publicCacheKey('kline:BTC/USDT:1m'));
    const kept = row?.value as { time: number }[];
    expect(kept).toHaveLength(MAX_CANDLES);
    expect(kept[0]?.time).toBe(250);
    expect(kept.at(-1)?.time).toBe(MAX_CANDLES + 249);
    expect(row?.at).toBe(5_000);
  });

  it('Y11 beyond MAX_SERIES series, the least recently used series is evicted; other data stays', async () => {
    const db = fresh();
    await putCache(db, publicCacheKey('quotes'), 'data', { list: [] }, 1);
    for (let i = 0; i < MAX_SERIES; i++)
      await putCache(db, publicCacheKey(`kline:P${i}:1m`), 'kline', candles(3), 10 + i);
    // Opening series 0 again makes series 1 the least recently used.
    await touchCache(db, publicCacheKey('kline:P0:1m'), 100);
    await putCache(db, publicCacheKey('kline:NEW:1m'), 'kline', candles(3), 200);
    expect(await db.cache.where('kind').equals('kline').count()).toBe(MAX_SERIES);
    expect(await readCache(db, publicCacheKey('kline:P1:1m'))).toBeUndefined();
    expect(await readCache(db, publicCacheKey('kline:P0:1m'))).toBeDefined();
    expect(await readCache(db, publicCacheKey('kline:NEW:1m'))).toBeDefined();
    expect(await readCache(db, publicCacheKey('quotes'))).toBeDefined();
  });

  it('Y10 logout clears the member’s cache entries and keeps public ones and other members’', async () => {
    const db = fresh();
    await putCache(db, memberCacheKey('100001', 'assets'), 'data', { total: '1' });
    await putCache(db, memberCacheKey('1000012', 'assets'), 'data', { total: '2' });
    await putCache(db, publicCacheKey('quotes'), 'data', { list: [] });
    await forgetMember(db, '100001');
    expect(await readCache(db, memberCacheKey('100001', 'assets'))).toBeUndefined();
    expect(await readCache(db, memberCacheKey('1000012', 'assets'))).toBeDefined();
    expect(await readCache(db, publicCacheKey('quotes'))).toBeDefined();
  });
});
