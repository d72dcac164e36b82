/**
 * Live mode with a market (issue 28): a live engine takes its prices from the source the server hands it
 * (here a venue-named test source, tests/engine/markets/venue-source.ts). Its quotes say where the prices
 * come from; a stale index refuses every order (4036) and pauses liquidations, and both recover by
 * themselves; the operators' kill switch stops new orders in one pair (4037) but lets members close; the
 * house's net position per pair is what members hold, reversed. A live engine without a market shows no
 * quote at all.
 */
import { describe, expect, it } from 'vitest';

import { liveMember, openLive, type LiveEngine, type LiveSession } from '../live';

import type { OrderBody } from './harness';

import { VENUES, venueSource, type VenueSource } from './venue-source';

let txCount = 0;

async function funded(l: LiveEngine, name: string, usdt: bigint): Promise<LiveSession> {
  const s = await liveMember(l, name);
  const { address } = (await l.call('/api/recharge/address', { network: 'TRC20' }, s)).data;
  txCount += 1;
  const outcome = await l.engine.operations.recordChainDeposit({
    network: 'TRC20',
    txHash: txCount.toString(16).padStart(64, 'a'),
    logIndex: 0,
    address,
    amount: usdt,
    blockNumber: 100,
    confirmations: 19,
    status: 'confirmed',
  });
  expect(outcome.result).toBe('credited');
  return s;
}

async function open(): Promise<{ l: LiveEngine; market: VenueSource }> {
  const market = venueSource(11);
  const l = await openLive(11, { market });
  return { l, market };
}

const buy: OrderBody = { symbol: 'BTC/USDT', market: 'spot', side: 'buy', type: 'market', volume: '0.01' };
const long: OrderBody = {
  symbol: 'BTC/USDT',
  market: 'contract',
  side: 'open_long',
  volume: '0.01',
  leverage: 100,
  marginMode: 'isolated',
};

describe('live mode takes its prices from the market source', () => {
  it('every quote names its venues; a stale pair says so with the time of its last fresh prices', async () => {
    const { l, market } = await open();
    const list = (await l.call('/api/market/list')).data.list;
    expect(list.length).toBe(8);
    for (const q of list) {
      expect(q.source).toBe(VENUES);
      expect(q.stale).toBeUndefined();
    }
    const since = l.clock.now();
    market.setStale(since);
    l.clock.advance(60_000);
    const stale = (await l.call('/api/market/list')).data.list;
    for (const q of stale) {
      expect(q).toMatchObject({ source: VENUES, stale: true, time: Math.floor(since / 1000) });
    }
  });

  it('a stale index refuses every order with 4036 and changes nothing; fresh prices take orders again', async () => {
    const { l, market } = await open();
    const ann = await funded(l, 'ann', 50_000_000_000n);
    expect(
      (await l.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '1000' }, ann)).code,
    ).toBe(0);
    const since = l.clock.now();
    market.setStale(since);
    const before = await l.engine.diagnostics.stateHash();
    for (const body of [buy, long, { ...buy, side: 'sell' as const }]) {
      expect(await l.call('/api/order/place', body, ann)).toMatchObject({
        code: 4036,
        data: { symbol: 'BTC/USDT', since: Math.floor(since / 1000) },
      });
    }
    expect(await l.engine.diagnostics.stateHash()).toBe(before);
    market.setStale(null);
    const placed = await l.call('/api/order/place', buy, ann);
    expect(placed.code).toBe(0);
    expect(placed.data.status).toBe('filled');
  });

  it('liquidations wait while the index is stale and happen on the first fresh prices', async () => {
    const { l, market } = await open();
    const bob = await funded(l, 'bob', 100_000_000n);
    expect(
      (await l.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '100' }, bob)).code,
    ).toBe(0);
    expect((await l.call('/api/order/place', long, bob)).code).toBe(0);
    const positions = async () => (await l.call('/api/position/list', {}, bob)).data.list;
    expect(await positions()).toHaveLength(1);
    // The market falls 3% (a 100x long is gone at ~1%) while no venue updates.
    market.setStale(l.clock.now());
    market.shift(-30_000);
    for (let i = 0; i < 5; i++) {
      l.clock.advance(1_000);
      await l.engine.settle();
    }
    expect(await positions()).toHaveLength(1);
    market.setStale(null);
    l.clock.advance(1_000);
    await l.engine.settle();
    expect(await positions()).toHaveLength(0);
  });
});

describe('the kill switch', () => {
  it('stops new orders in one pair (4037), lets members close, and resumes', async () => {
    const { l } = await open();
    const cy = await funded(l, 'cy', 50_000_000_000n);
    expect(
      (await l.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '1000' }, cy)).code,
    ).toBe(0);
    expect((await l.call('/api/order/place', long, cy)).code).toBe(0);
    expect(await l.engine.operations.setTradingHalt('BTC/USDT', true, 'venue incident')).toBe(true);
    expect(await l.engine.operations.setTradingHalt('BTC/USDT', true)).toBe(false);
    for (const body of [buy, long]) {
      expect(await l.call('/api/order/place', body, cy)).toMatchObject({
        code: 4037,
        data: { symbol: 'BTC/USDT' },
      });
    }
    // Other pairs trade; closing the halted pair's position is allowed.
    expect((await l.call('/api/order/place', { ...buy, symbol: 'ETH/USDT', volume: '0.1' }, cy)).code).toBe(
      0,
    );
    const close = await l.call('/api/order/place', { ...long, side: 'close_long' }, cy);
    expect(close.code).toBe(0);
    const risk = await l.engine.operations.houseRisk();
    expect(risk.pairs.find((p) => p.symbol === 'BTC/USDT')).toMatchObject({
      halted: true,
      haltReason: 'venue incident',
      source: VENUES,
    });
    expect(await l.engine.operations.setTradingHalt('BTC/USDT', false)).toBe(true);
    expect((await l.call('/api/order/place', buy, cy)).code).toBe(0);
    await expect(l.engine.operations.setTradingHalt('NOPE/USDT', true)).rejects.toMatchObject({ code: 400 });
  });
});

describe("the house's risk", () => {
  it('nets what members hold, reversed, per pair, valued at the index', async () => {
    const { l } = await open();
    const dee = await funded(l, 'dee', 50_000_000_000n);
    expect(
      (await l.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '1000' }, dee)).code,
    ).toBe(0);
    expect((await l.call('/api/order/place', { ...buy, volume: '0.1' }, dee)).code).toBe(0);
    expect((await l.call('/api/order/place', { ...long, volume: '0.2' }, dee)).code).toBe(0);
    expect(
      (
        await l.call(
          '/api/order/place',
          { ...long, symbol: 'ETH/USDT', side: 'open_short', volume: '1' },
          dee,
        )
      ).code,
    ).toBe(0);
    const risk = await l.engine.operations.houseRisk();
    const btc = risk.pairs.find((p) => p.symbol === 'BTC/USDT')!;
    expect(btc).toMatchObject({ spot: '-0.1', contracts: '-0.2', net: '-0.3', halted: false, stale: false });
    const index = Number(btc.indexPrice);
    expect(Math.abs(Number(btc.exposure) + 0.3 * index)).toBeLessThan(0.01);
    expect(risk.pairs.find((p) => p.symbol === 'ETH/USDT')).toMatchObject({
      spot: '0',
      contracts: '1',
      net: '1',
    });
    // The house was paid for the coins it sold: its cash is positive, and its PnL is a figure.
    expect(Number(risk.cash)).toBeGreaterThan(0);
    expect(risk.pnl).not.toBeNull();
  });
});

describe('a live engine without a market', () => {
  it('lists no quote, and charts, books and orders answer 403', async () => {
    const l = await openLive(12);
    expect((await l.call('/api/market/list')).data).toEqual({ list: [] });
    expect((await l.call('/api/market/kline', { symbol: 'BTC/USDT', interval: '1m' })).code).toBe(403);
    expect((await l.call('/api/market/depth', { symbol: 'BTC/USDT' })).code).toBe(403);
    const risk = await l.engine.operations.houseRisk();
    expect(risk).toMatchObject({ pairs: [], cash: '0', pnl: '0' });
  });
});
