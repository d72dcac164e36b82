/**
 * The house's risk and the kill switch in the operator API (GET /api/admin/market, POST
 * /api/admin/market/halt) on a live server whose prices come from three venues replayed from fixtures
 * (no network): every operator reads the house's net position per pair, its value at the index, the
 * venues' states; only an admin stops and resumes new orders in a pair, with a reason in the audit log;
 * a stopped pair refuses members' orders (4037); bad input and no-ops change nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { BodyOf, Quote } from '../../../engine/contract';

import { configFromEnv } from '../../../server/config';

import { SqlStore } from '../../../server/sql-store';

import { adminCall, adminCallRaw, adminGet, makeOperator, type TestOperator } from './admin-helpers';

import { loadFixture, replayVenue } from './market-data/replay';

import { deposit, signUp, startTestServer, TEST_XPUB, type Session, type TestServer } from './serve';

import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const VENUES = 'binance,okx,coinbase';
const schema = freshSchema();
let server: TestServer;
let admin: TestOperator;
let reviewer: TestOperator;
let ann: Session;

beforeAll(async () => {
  const { market } = configFromEnv({
    DEMO: 'false',
    WALLET_XPUB: TEST_XPUB,
    MARKET_VENUES: VENUES,
    MARKET_PAIRS: 'BTC/USDT',
    MARKET_POLL_MS: '100',
    MARKET_BACKFILL: '0',
  });
  const venues = Object.fromEntries(VENUES.split(',').map((v) => [v, replayVenue(loadFixture(v))]));
  const store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({
    storage: store,
    config: { market, loginPerIpPerMinute: 1_000 },
    marketExchange: async (venue) => venues[venue]!.exchange,
  });
  admin = await makeOperator(store, server, 'root', 'admin');
  reviewer = await makeOperator(store, server, 'rita', 'reviewer');
  ann = await signUp(server, 'ann');
  await deposit(server, ann, '20000', 1);
});

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

const marketView = async (token: string) => (await adminGet(server, '/api/admin/market', {}, token)).data;

/** Waits for the venues' fresh prices at the server's clock (the gateway polls them meanwhile). */
async function freshQuote(): Promise<Quote> {
  let quote: Quote | undefined;
  await vi.waitFor(
    async () => {
      quote = (await server.call('/api/market/list')).data.list[0];
      expect(quote).toMatchObject({ symbol: 'BTC/USDT', source: VENUES });
      expect(quote?.stale).toBeUndefined();
    },
    { timeout: 20_000, interval: 100 },
  );
  return quote!;
}

const buy: BodyOf<'/api/order/place'> = {
  symbol: 'BTC/USDT',
  market: 'spot',
  side: 'buy',
  type: 'market',
  volume: '0.1',
};

describe(`the house's risk and the kill switch (${sqlKind})`, () => {
  it('every operator reads the house net position per pair, valued at the index, and the venues', async () => {
    await freshQuote();
    expect((await server.call('/api/order/place', buy, ann)).code).toBe(0);
    await freshQuote();
    const view = await marketView(reviewer.token);
    expect(view).toMatchObject({ mode: 'venues' });
    const btc = view.pairs.find((p) => p.symbol === 'BTC/USDT')!;
    expect(btc).toMatchObject({
      spot: '-0.1',
      contracts: '0',
      net: '-0.1',
      indexPrice: '91234.56',
      exposure: '-9123.456',
      source: VENUES,
      stale: false,
      halted: false,
    });
    expect(btc.venues.map((v) => [v.venue, v.state])).toEqual([
      ['binance', 'used'],
      ['okx', 'used'],
      ['coinbase', 'used'],
    ]);
    expect(btc.venues[0]).toMatchObject({ price: '91234.56' });
    // What the member paid for the coin is the house's cash.
    expect(Number(view.cash)).toBeGreaterThan(9_123);
  });

  it('only an admin stops a pair, with a reason; members then get 4037; it resumes', async () => {
    const halt = { symbol: 'BTC/USDT', halted: true, reason: 'venue incident' };
    expect((await adminCall(server, '/api/admin/market/halt', halt, reviewer.token)).code).toBe(403);
    for (const bad of [
      { ...halt, symbol: 'btc' },
      { ...halt, reason: ' ' },
      { ...halt, halted: 'yes' },
    ])
      expect((await adminCallRaw(server, '/api/admin/market/halt', bad, admin.token)).code).toBe(400);
    expect(
      (await adminCall(server, '/api/admin/market/halt', { ...halt, symbol: 'NOPE/USDT' }, admin.token)).code,
    ).toBe(404);

    const stopped = await adminCall(server, '/api/admin/market/halt', halt, admin.token);
    expect(stopped.code).toBe(0);
    expect(stopped.data).toMatchObject({
      symbol: 'BTC/USDT',
      halted: true,
      haltReason: 'venue incident',
    });
    expect((await adminCall(server, '/api/admin/market/halt', halt, admin.token)).code).toBe(409);
    await freshQuote();
    expect(await server.call('/api/order/place', buy, ann)).toMatchObject({
      code: 4037,
      data: { symbol: 'BTC/USDT' },
    });

    const audit = (await adminGet(server, '/api/admin/audit', { action: 'market.halt' }, admin.token)).data;
    expect(audit.list).toHaveLength(1);
    expect(audit.list[0]).toMatchObject({
      target: 'pair:BTC/USDT',
      reason: 'venue incident',
      before: { halted: false },
      after: { halted: true },
    });

    const resumed = await adminCall(
      server,
      '/api/admin/market/halt',
      { symbol: 'BTC/USDT', halted: false, reason: 'venues back' },
      admin.token,
    );
    expect(resumed.data).toMatchObject({ halted: false, haltedAt: null });
    await freshQuote();
    expect((await server.call('/api/order/place', buy, ann)).code).toBe(0);
  });
});
