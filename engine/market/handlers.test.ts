import { describe, expect, it } from 'vitest';

import { harnessCalls } from '../../tests/engine/harness';

import { createEngine, manualClock } from '../index';

const START = Date.UTC(2026, 10, 21, 8, 0, 0);

async function setup() {
  const clock = manualClock(START);
  const engine = await createEngine({ storage: 'memory', seed: 11, clock, config: { secrets: 'seeded' } });
  const { call, callRaw } = harnessCalls(engine);
  return { clock, engine, call, callRaw };
}

describe('market calls', () => {
  it('M9 /api/market/list answers the eight pairs with 24h statistics as decimal strings', async () => {
    const { call } = await setup();
    const res = await call('/api/market/list');
    expect(res.code).toBe(0);
    const list = res.data.list;
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
    const res = await harnessCalls(engine).call('/api/market/list');
    expect(res.code).toBe(0);
    const list = res.data.list;
    expect(list).toHaveLength(8);
    for (const q of list) expect(q.markPrice).toMatch(/^\d+(\.\d{1,6})?$/);
  });

  it('M9 /api/market/kline pages with limit and before; bad input answers 400', async () => {
    const { call, callRaw } = await setup();
    const res = await call('/api/market/kline', { symbol: 'BTCUSDT', interval: '4h', limit: 1000 });
    expect(res.code).toBe(0);
    const candles = res.data;
    expect(candles).toHaveLength(1000);
    // A limit given as a string, outside the contract's body: sent unchecked, still read as 5.
    const older = await callRaw('/api/market/kline', {
      symbol: 'btc',
      interval: '4h',
      limit: '5',
      before: candles[0]!.time,
    });
    expect(older.data).toEqual(
      [5, 4, 3, 2, 1].map((i) => expect.objectContaining({ time: candles[0]!.time - i * 14_400 })),
    );
    expect((await call('/api/market/kline', { symbol: 'FOO', interval: '1m' })).code).toBe(400);
    expect((await callRaw('/api/market/kline', { symbol: 'BTC', interval: '2m' })).code).toBe(400);
    expect((await call('/api/market/kline', { symbol: 'BTC', interval: '1m', limit: 1001 })).code).toBe(400);
    expect((await call('/api/market/kline', { symbol: 'BTC', interval: '1m', limit: -1 })).code).toBe(400);
  });

  it('M9 /api/market/depth answers the book around the price', async () => {
    const { call } = await setup();
    const res = await call('/api/market/depth', { symbol: 'ETH/USDT', limit: 5 });
    expect(res.code).toBe(0);
    const depth = res.data;
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
