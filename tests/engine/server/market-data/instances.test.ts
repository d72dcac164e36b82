/**
 * One gateway for the cluster (docs/OPERATIONS.md "Market data and the house's risk"): two live instances on
 * one PostgreSQL schema, each able to reach the venues (replayed from fixtures, no network). Only the lease
 * holder connects; the other prices from the snapshots it hears on the market bus (LISTEN/NOTIFY) and
 * answers the K-line the holder stored in PostgreSQL (market_candles). When the holder stops, the other
 * takes the lease and connects.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';

import { configFromEnv } from '../../../../server/config';

import { SqlStore } from '../../../../server/sql-store';

import { startTestServer, TEST_XPUB, type TestServer } from '../serve';

import { dropSchema, freshSchema, sqlKind, testDriver } from '../sql';

import { loadFixture, replayVenue, type ReplayVenue } from './replay';

const VENUES = 'binance,okx,coinbase';
const schema = freshSchema();
const servers: TestServer[] = [];

afterAll(async () => {
  for (const s of servers) await s.close();
  await dropSchema(schema);
});

function venues(): Record<string, ReplayVenue> {
  return Object.fromEntries(VENUES.split(',').map((v) => [v, replayVenue(loadFixture(v))]));
}

const requests = (set: Record<string, ReplayVenue>) =>
  Object.values(set).reduce((n, v) => n + v.requests.length, 0);

const quotes = async (s: TestServer) => (await s.call('/api/market/list')).data.list;

describe.runIf(sqlKind === 'postgres')('the market across instances (postgres)', () => {
  it('only the lease holder connects; the other hears its snapshots and reads its candles; the lease moves', async () => {
    const { market } = configFromEnv({
      DEMO: 'false',
      WALLET_XPUB: TEST_XPUB,
      MARKET_VENUES: VENUES,
      MARKET_PAIRS: 'BTC/USDT',
      MARKET_POLL_MS: '100',
      MARKET_BACKFILL: '5',
    });
    const config = { market, databaseUrl: process.env['DATABASE_URL'] };
    const venuesA = venues();
    const venuesB = venues();
    const a = await startTestServer({
      storage: await SqlStore.open(await testDriver(), { schema }),
      config,
      marketExchange: async (venue) => venuesA[venue]!.exchange,
    });
    servers.push(a);
    const b = await startTestServer({
      storage: await SqlStore.open(await testDriver(), { schema }),
      clock: a.clock,
      config,
      marketExchange: async (venue) => venuesB[venue]!.exchange,
    });
    servers.push(b);
    expect(a.marketData?.leading).toBe(true);
    expect(b.marketData?.leading).toBe(false);

    // B never asked a venue anything, yet quotes the venues' index, named by them.
    await vi.waitFor(
      async () => expect((await quotes(b))[0]).toMatchObject({ latest: '91234.56', source: VENUES }),
      { timeout: 20_000, interval: 100 },
    );
    expect(requests(venuesA)).toBeGreaterThan(0);
    expect(requests(venuesB)).toBe(0);
    // The candles A backfilled are in PostgreSQL: B's K-line has them.
    await vi.waitFor(
      async () => {
        const kline = (await b.call('/api/market/kline', { symbol: 'BTC/USDT', interval: '1m' })).data;
        expect(kline.find((c) => c.time === 1_767_599_940)).toMatchObject({
          open: '91232',
          close: '91234.56',
          volume: '10.55758',
        });
      },
      { timeout: 20_000, interval: 100 },
    );

    // A stops (its lease is handed back): B takes it and connects to the venues itself.
    await a.close();
    servers.splice(servers.indexOf(a), 1);
    await vi.waitFor(() => expect(b.marketData?.leading).toBe(true), { timeout: 20_000, interval: 100 });
    await vi.waitFor(() => expect(requests(venuesB)).toBeGreaterThan(0), { timeout: 20_000, interval: 100 });
    b.clock.advance(1_000);
    await vi.waitFor(
      async () => {
        const q = (await quotes(b))[0];
        expect(q).toMatchObject({
          latest: '91234.56',
          source: VENUES,
          time: Math.floor(b.clock.now() / 1000),
        });
        expect(q?.stale).toBeUndefined();
      },
      { timeout: 20_000, interval: 100 },
    );
  });
});
