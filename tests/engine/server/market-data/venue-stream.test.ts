/**
 * A venue that streams (ccxt's `watch*`, the WebSocket path of server/market-data/venue.ts), no network:
 * the stream stands in for ccxt's socket and delivers what the venue's own ccxt class parsed from the
 * fixture (replay.ts), one update per watch call, as ccxt.pro does. Each update reaches the feed as it
 * arrives (no polling pause); a dropped connection (the pending watch rejects with ccxt's NetworkError)
 * is logged at warn level and the next watch call reconnects, after which updates flow again with an info
 * line.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NetworkError, type Exchange, type OHLCV, type OrderBook, type Ticker } from 'ccxt';
import { findSymbol } from '../../../../engine/server';
import { VenueFeed } from '../../../../server/market-data/venue';
import { loadFixture, replayVenue } from './replay';

const BTC = findSymbol('BTC/USDT')!;

/** One stream of a fake socket: watch() waits for the next pushed update, or rejects when dropped. */
class Stream<T> {
  private queue: T[] = [];
  private waiting: { resolve: (v: T) => void; reject: (e: Error) => void } | null = null;
  calls = 0;

  watch(): Promise<T> {
    this.calls += 1;
    const next = this.queue.shift();
    if (next !== undefined) return Promise.resolve(next);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  push(value: T): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve(value);
    } else this.queue.push(value);
  }

  drop(reason: string): void {
    const w = this.waiting;
    this.waiting = null;
    w?.reject(new NetworkError(reason));
  }
}

const feeds: VenueFeed[] = [];
afterEach(async () => {
  for (const f of feeds.splice(0)) await f.close();
});

describe('a venue over its WebSocket streams', () => {
  it('applies each update as it arrives, and reconnects after the connection drops', async () => {
    // What the venue's own ccxt class makes of its answers: the updates the stream carries.
    const rest = replayVenue(loadFixture('okx')).exchange;
    const ticker = await rest.fetchTicker('BTC/USDT');
    const book = await rest.fetchOrderBook('BTC/USDT', 50);
    const candles = await rest.fetchOHLCV('BTC/USDT', '1m', undefined, 5);

    const tickers = new Stream<Ticker>();
    const books = new Stream<OrderBook>();
    const ohlcv = new Stream<OHLCV[]>();
    const fetched: string[] = [];
    const streaming = {
      id: 'okx',
      has: { watchTicker: true, watchOrderBook: true, watchOHLCV: true, fetchOHLCV: true },
      markets: rest.markets,
      loadMarkets: async () => rest.markets,
      watchTicker: () => tickers.watch(),
      watchOrderBook: () => books.watch(),
      watchOHLCV: () => ohlcv.watch(),
      // The REST calls are for the backfill only; a streaming venue is never polled.
      fetchTicker: async () => {
        fetched.push('ticker');
        return ticker;
      },
      close: async () => {
        for (const s of [tickers, books]) s.drop('closed');
        ohlcv.drop('closed');
      },
    } as unknown as Exchange;

    const clock = { now: 1_767_600_000_000 };
    const logs: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const log = (level: string) => (obj: object, msg: string) =>
      logs.push({ level, obj: obj as Record<string, unknown>, msg });
    const feed = new VenueFeed('okx', streaming, {
      pairs: [BTC],
      bookLevels: 50,
      pollMs: 60_000,
      perpetuals: false,
      clock: () => clock.now,
      log: { info: log('info'), warn: log('warn') },
    });
    feeds.push(feed);
    feed.start();
    await vi.waitFor(() => expect(feed.listedPairs()).toEqual(['BTC/USDT']));
    const state = feed.pairs.get('BTC/USDT')!;
    expect(state.last).toBeNull();

    tickers.push(ticker);
    books.push(book);
    ohlcv.push(candles);
    await vi.waitFor(() => {
      expect(state.last).toBe(91_234_900_000n);
      expect(state.asks[0]).toEqual({ price: 91_234_900_000, qty: 2_000 });
      expect(state.candles.size).toBe(5);
    });
    expect(state.lastTime).toBe(clock.now);
    expect(fetched).toEqual([]);

    // A later update at a later time: applied at once, with its arrival time (the staleness clock).
    clock.now += 3_000;
    tickers.push({ ...ticker, last: 91_300.5 });
    await vi.waitFor(() => expect(state.last).toBe(91_300_500_000n));
    expect(state.lastTime).toBe(clock.now);

    // The connection drops: warn, and the feed keeps its last update (the gateway's clock makes it stale).
    tickers.drop('connection closed by the venue');
    await vi.waitFor(() =>
      expect(logs.find((l) => l.level === 'warn')).toMatchObject({
        obj: { venue: 'okx', stream: 'BTC/USDT ticker' },
        msg: 'venue unreachable: its prices leave the index until it answers again',
      }),
    );
    expect(state.last).toBe(91_300_500_000n);
    expect(feed.connected).toBe(false);

    // The next watch call (after the back-off) reconnects; the next update flows again.
    const before = tickers.calls;
    await vi.waitFor(() => expect(tickers.calls).toBeGreaterThan(before), { timeout: 5_000 });
    clock.now += 5_000;
    tickers.push({ ...ticker, last: 91_280 });
    await vi.waitFor(() => expect(state.last).toBe(91_280_000_000n));
    expect(state.lastTime).toBe(clock.now);
    await vi.waitFor(() =>
      expect(logs.find((l) => l.msg === 'venue reachable again')).toMatchObject({
        obj: { venue: 'okx', stream: 'BTC/USDT ticker', failures: 1 },
      }),
    );
    expect(feed.connected).toBe(true);
    expect(fetched).toEqual([]);
  });
});
