/**
 * A live server (DEMO=false) started with MARKET_VENUES, its venues replayed from fixtures (no network):
 * no price it shows is simulated. Every quote of /api/market/list and of the feed (ticker24hr, Curr)
 * names the venues its index is made of; a pair no venue lists has no quote at all (never a made-up
 * price); the K-line is the venues' candles, backfilled at start; the depth is the venues' book.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { WebSocket } from 'ws';

import type { FeedMessage } from '../../../../engine/index';
import { configFromEnv } from '../../../../server/config';

import { startTestServer, TEST_XPUB, type TestServer } from '../serve';

import { loadFixture, replayVenue } from './replay';

const VENUES = 'binance,okx,coinbase';
let server: TestServer;
let socket: WebSocket | undefined;

beforeAll(async () => {
  const config = configFromEnv({
    DEMO: 'false',
    WALLET_XPUB: TEST_XPUB,
    MARKET_VENUES: VENUES,
    MARKET_PAIRS: 'BTC/USDT,ETH/USDT',
    MARKET_PERPETUALS: 'true',
    MARKET_POLL_MS: '100',
    MARKET_BACKFILL: '5',
  });
  expect(config.demo).toBe(false);
  const venues = Object.fromEntries(VENUES.split(',').map((v) => [v, replayVenue(loadFixture(v))]));
  server = await startTestServer({
    config: { demo: config.demo, market: config.market },
    marketExchange: async (venue) => venues[venue]!.exchange,
  });
});

afterAll(async () => {
  socket?.terminate();
  await server.close();
});

const list = async () => (await server.call('/api/market/list')).data.list;

function expectVenues(source: string | undefined): void {
  expect(source).toBe(VENUES);
  expect(source).not.toContain('simulated');
}

describe('a live server with MARKET_VENUES', () => {
  it('quotes only what the venues price, each quote naming them', async () => {
    expect(server.marketData?.kind).toBe('venues');
    // The gateway publishes once a second; the first snapshot with all three venues makes the quote.
    await vi.waitFor(async () => expect((await list())[0]?.latest).toBe('91234.56'), {
      timeout: 20_000,
      interval: 100,
    });
    const quotes = await list();
    // ETH/USDT is configured but no venue's fixture lists it: it has no quote rather than a simulated one.
    expect(quotes.map((q) => q.symbol)).toEqual(['BTC/USDT']);
    for (const q of quotes) {
      expectVenues(q.source);
      expect(q.stale).toBeUndefined();
    }
  });

  it('the feed carries the same source in every ticker24hr quote and Curr entry', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
    socket = ws;
    // The feed's messages as the server sends them (API.md "Real-time feed").
    const messages: FeedMessage[] = [];
    ws.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString()) as FeedMessage));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'bind', data: 'strata' }));
    await vi.waitFor(
      async () => {
        server.clock.advance(1_000);
        await server.engine.settle();
        expect(messages.filter((m) => m.type === 'ticker24hr').length).toBeGreaterThanOrEqual(3);
        expect(messages.some((m) => m.type === 'Curr')).toBe(true);
      },
      { timeout: 20_000, interval: 100 },
    );
    const tickers = messages.flatMap((m) => (m.type === 'ticker24hr' ? m.data : []));
    const curr = messages.flatMap((m) => (m.type === 'Curr' ? Object.values(m.data) : []));
    expect(tickers.length).toBeGreaterThan(0);
    expect(curr.length).toBeGreaterThan(0);
    for (const q of [...tickers, ...curr]) {
      expect(q.symbol).toBe('BTC/USDT');
      expectVenues(q.source);
    }
  });

  it('answers the venues’ candles and book', async () => {
    await vi.waitFor(
      async () => {
        const kline = (await server.call('/api/market/kline', { symbol: 'BTC/USDT', interval: '1m' })).data;
        expect(kline.length).toBeGreaterThanOrEqual(5);
        expect(kline.find((c) => c.time === 1_767_599_940)).toMatchObject({ close: '91234.56' });
      },
      { timeout: 20_000, interval: 100 },
    );
    const depth = (await server.call('/api/market/depth', { symbol: 'BTC/USDT', limit: 3 })).data;
    expect(depth.asks[0]).toEqual(['91234.56', '0.18']);
    expect(depth.bids[0]).toEqual(['91234.55', '0.31']);
  });
});
