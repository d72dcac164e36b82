import { describe, expect, it } from 'vitest';
import { createEngine, manualClock } from '../index';
import type { Candle, Depth, Quote } from '../index';

const START = Date.UTC(2026, 10, 21, 8, 0, 0);

async function setup() {
  const clock = manualClock(START);
  const engine = await createEngine({ storage: 'memory', seed: 11, clock, config: { secrets: 'seeded' } });
  const call = async (path: string, body: unknown = {}) =>
    (await engine.handle({ method: 'POST', path, body })).body;
  return { clock, engine, call };
}

describe('market calls', () => {
  it('M9 /api/market/list answers the eight pairs with 24h statistics as decimal strings', async () => {
    const { call } = await setup();
    const res = await call('/api/market/list');
    expect(res.code).toBe(0);
    const list = (res.data as { list: Quote[] }).list;
    expect(list.map((q) => q.symbol)).toEqual([
      'BTC/USDT',
      'ETH/USDT',
      'TRX/USDT',
      'BNB/USDT',
      'SOL/USDT',
      'XRP/USDT',
      'DOGE/USDT',
      'LTC/USDT',
    ]);
    for (const q of list) {
      for (const field of [q.latest, q.high, q.low, q.open, q.prevClose, q.volume]) {
        expect(field).toMatch(/^\d+(\.\d{1,6})?$/);
      }
      expect(q.change24h).toMatch(/^-?\d+\.\d\d$/);
    }
  });

  it('M9 /api/market/list answers on a clock with sub-millisecond digits (the system clock)', async () => {
    const clock = manualClock(START + 0.971);
    const engine = await createEngine({ storage: 'memory', seed: 11, clock, config: { secrets: 'seeded' } });
    const res = (await engine.handle({ method: 'POST', path: '/api/market/list', body: {} })).body;
    expect(res.code).toBe(0);
    const list = (res.data as { list: Quote[] }).list;
    expect(list).toHaveLength(8);
    for (const q of list) expect(q.markPrice).toMatch(/^\d+(\.\d{1,6})?$/);
  });

  it('M9 /api/market/kline pages with limit and before; bad input answers 400', async () => {
    const { call } = await setup();
    const res = await call('/api/market/kline', { symbol: 'BTCUSDT', interval: '4h', limit: 1000 });
    expect(res.code).toBe(0);
    const candles = res.data as Candle[];
    expect(candles).toHaveLength(1000);
    const older = await call('/api/market/kline', {
      symbol: 'btc',
      interval: '4h',
      limit: '5',
      before: candles[0]!.time,
    });
    expect((older.data as Candle[]).map((c) => c.time)).toEqual(
      [5, 4, 3, 2, 1].map((i) => candles[0]!.time - i * 14_400),
    );
    expect((await call('/api/market/kline', { symbol: 'FOO', interval: '1m' })).code).toBe(400);
    expect((await call('/api/market/kline', { symbol: 'BTC', interval: '2m' })).code).toBe(400);
    expect((await call('/api/market/kline', { symbol: 'BTC', interval: '1m', limit: 1001 })).code).toBe(400);
    expect((await call('/api/market/kline', { symbol: 'BTC', interval: '1m', limit: -1 })).code).toBe(400);
  });

  it('M9 /api/market/depth answers the book around the price', async () => {
    const { call } = await setup();
    const res = await call('/api/market/depth', { symbol: 'ETH/USDT', limit: 5 });
    expect(res.code).toBe(0);
    const depth = res.data as Depth;
    expect(depth.asks).toHaveLength(5);
    expect(Number(depth.asks[0]![0])).toBeGreaterThan(Number(depth.bids[0]![0]));
  });

  it('M8 settling the engine drives the feed: tickers each second, books ten times a second', async () => {
    const { clock, engine } = await setup();
    const seen: string[] = [];
    engine.subscribe((m) => seen.push(m.type));
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      await engine.settle();
    }
    expect(seen.filter((t) => t === 'ticker24hr')).toHaveLength(1);
    expect(seen.filter((t) => t === 'Curr')).toHaveLength(1);
    expect(seen.filter((t) => t === 'Kline')).toHaveLength(8 * 7);
    expect(seen.filter((t) => t === 'getQuota')).toHaveLength(8 * 10);
  });
});
