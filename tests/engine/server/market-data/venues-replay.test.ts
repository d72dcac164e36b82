/**
 * The market-data gateway on venue traffic replayed from fixtures (no network): Binance, OKX and Coinbase
 * through their own ccxt classes (replay.ts), polled over REST as the gateway does where a venue has no
 * stream. The index is the median of their prices and names them; the book members trade against is
 * theirs combined; the perpetuals' premium comes from the venues' perpetual tickers; the K-line is
 * backfilled from their candles at start and then built from the stream; a venue that disconnects leaves
 * the index (warn log) and comes back by itself; all venues gone makes the index stale, and fresh again
 * when they answer. Members' orders fill against the venues' book, price band included, with the house as
 * counterparty.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Quote } from '../../../../engine/contract';
import { findSymbol } from '../../../../engine/server';

import { localBus } from '../../../../server/events';

import { memoryCandles, type CandleStore } from '../../../../server/market-data/candles';

import type { MarketConfig } from '../../../../server/market-data/config';

import { VenueMarketData } from '../../../../server/market-data/gateway';

import { liveMember, openLive, type LiveEngine, type LiveSession } from '../../live';

import { loadFixture, replayVenue, type ReplayVenue } from './replay';

const BTC = findSymbol('BTC/USDT')!;
const T0 = Date.UTC(2026, 0, 5, 8);
const VENUES = ['binance', 'okx', 'coinbase'];

interface LogLine {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

interface Rig {
  gateway: VenueMarketData;
  venues: Record<string, ReplayVenue>;
  candles: CandleStore;
  logs: LogLine[];
  clock: { now: number };
}

const open: Rig[] = [];

afterEach(async () => {
  for (const rig of open.splice(0)) await rig.gateway.close();
});

function config(overrides: Partial<MarketConfig> = {}): MarketConfig {
  return {
    venues: VENUES,
    pairs: [BTC],
    weights: { binance: 1, okx: 1, coinbase: 1 },
    staleMs: 10_000,
    outlierBps: 500,
    minVenues: 2,
    bookLevels: 50,
    perpetuals: true,
    pollMs: 100,
    backfill: 5,
    ...overrides,
  };
}

async function rig(
  clock: { now: number } = { now: T0 },
  overrides: Partial<MarketConfig> = {},
): Promise<Rig> {
  const venues = Object.fromEntries(VENUES.map((v) => [v, replayVenue(loadFixture(v))]));
  const logs: LogLine[] = [];
  const line =
    (level: LogLine['level']) =>
    (obj: object, msg: string): void => {
      logs.push({ level, obj: obj as Record<string, unknown>, msg });
    };
  const candles = memoryCandles();
  const gateway = new VenueMarketData({
    config: config(overrides),
    candles,
    clock: () => clock.now,
    log: { info: line('info'), warn: line('warn'), error: line('error') },
    exchange: async (venue) => venues[venue]!.exchange,
    // Snapshots are made by the test (publish), never by a timer.
    publishMs: 3_600_000,
    leaseCheckMs: 3_600_000,
  });
  const r = { gateway, venues, candles, logs, clock };
  open.push(r);
  await gateway.start({ bus: localBus(), mayRun: async () => true });
  return r;
}

/** Publishes until the snapshot of BTC/USDT satisfies `check` (the venues are polled meanwhile). */
async function until(r: Rig, check: () => void, timeout = 20_000): Promise<void> {
  await vi.waitFor(
    async () => {
      await r.gateway.publish();
      check();
    },
    { timeout, interval: 50 },
  );
}

const snap = (r: Rig) => r.gateway.source.snapshotOf('BTC/USDT')!;
const states = (r: Rig) => Object.fromEntries(snap(r).venues.map((v) => [v.venue, v.state]));
/** micro-USDT of a decimal price text. */
const micro = (text: string) => {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6));
};

describe('three venues replayed through their ccxt classes', () => {
  it('make the index, its source, the combined book and the premium, from the fixtures', async () => {
    const r = await rig();
    await until(r, () => {
      expect(states(r)).toEqual({ binance: 'used', okx: 'used', coinbase: 'used' });
      expect(snap(r).asks.length).toBe(11);
      expect(snap(r).premiumPpm).not.toBe(0);
    });
    const s = snap(r);
    // The venues' last prices: 91,234.56 (Binance), 91,234.9 (OKX), 91,233.8 (Coinbase): the median.
    expect(s).toMatchObject({ index: '91234560000', stale: false, source: 'binance,okx,coinbase' });
    // Each venue's book, merged level by level, best first.
    expect(s.asks.slice(0, 4)).toEqual([
      [91_234_560_000, 1_800],
      [91_234_900_000, 2_000],
      [91_235_100_000, 800],
      [91_235_200_000, 2_500],
    ]);
    expect(s.bids[0]).toEqual([91_234_550_000, 3_100]);
    expect(s.bids.length).toBe(11);
    // The perpetuals (Binance 91,270.10, OKX 91,281.5; Coinbase lists none in USDT): the lower middle of
    // (perp - index) / index in ppm, as the gateway takes a median.
    const premiums = [micro('91270.10'), micro('91281.5')].map(
      (p) => ((p - micro('91234.56')) * 1_000_000n) / micro('91234.56'),
    );
    expect(s.premiumPpm).toBe(Number(premiums[0]));
    // The quote members see names the venues and is never simulated.
    const quote = r.gateway.source.quotes(T0)[0] as Quote;
    expect(quote).toMatchObject({ symbol: 'BTC/USDT', latest: '91234.56', source: 'binance,okx,coinbase' });
    expect(quote.stale).toBeUndefined();
    // Every request was answered from a recording, except the backfill's longer intervals (the fixtures
    // hold one-minute candles only; those backfills log a warning and store nothing).
    for (const v of VENUES) {
      const { requests, missing } = r.venues[v]!;
      expect(new Set(requests).size).toBeGreaterThanOrEqual(v === 'coinbase' ? 3 : 4);
      for (const key of missing) expect(key).toMatch(/interval=(5m|15m|30m|1h|4h|1d)|bar=|granularity=/);
      for (const key of missing) expect(key).not.toMatch(/bar=1m|ONE_MINUTE|interval=1m/);
    }
  });

  it('backfills the K-line from the venues at start, then builds it from the stream', async () => {
    const clock = { now: T0 };
    const r = await rig(clock);
    await vi.waitFor(async () => expect(await r.candles.candles('BTC/USDT', '1m', 10)).toHaveLength(5), {
      timeout: 20_000,
      interval: 50,
    });
    const stored = await r.candles.candles('BTC/USDT', '1m', 10);
    // 07:59: each field the median over the three venues' candles of that minute, volumes summed.
    expect(stored[4]).toEqual({
      time: 1_767_599_940,
      open: '91232',
      high: '91238.9',
      low: '91229',
      close: '91234.56',
      volume: '10.55758',
    });
    expect(stored.map((c) => c.time)).toEqual([
      1_767_599_700, 1_767_599_760, 1_767_599_820, 1_767_599_880, 1_767_599_940,
    ]);
    // The minute in progress (08:00) comes from the index samples; /api/market/kline's answer holds both.
    await until(r, () => expect(snap(r).stale).toBe(false));
    const kline = await r.gateway.source.kline(BTC, '1m', clock.now, 10);
    expect(kline.map((c) => c.time)).toEqual([...stored.map((c) => c.time), 1_767_600_000]);
    expect(kline[5]).toMatchObject({ open: '91234.56', close: '91234.56' });
    // The next minute closes 08:00: it is stored, so every instance's K-line has it.
    clock.now = T0 + 60_000;
    await until(r, () => expect(snap(r).candles['1m']?.time).toBe(1_767_600_060));
    const after = await r.candles.candles('BTC/USDT', '1m', 10);
    expect(after.at(-1)).toMatchObject({ time: 1_767_600_000, open: '91234.56', close: '91234.56' });
  });

  it('a venue that disconnects leaves the index with a warning and comes back by itself', async () => {
    const clock = { now: T0 };
    const r = await rig(clock);
    await until(r, () => expect(states(r)).toEqual({ binance: 'used', okx: 'used', coinbase: 'used' }));

    r.venues['binance']!.down = true;
    await vi.waitFor(() =>
      expect(
        r.logs.some(
          (l) => l.level === 'warn' && l.obj['venue'] === 'binance' && l.msg.startsWith('venue unreachable'),
        ),
      ).toBe(true),
    );
    // Past the stale time Binance has said nothing; OKX and Coinbase keep answering.
    clock.now += 11_000;
    await until(r, () => expect(states(r)).toEqual({ binance: 'stale', okx: 'used', coinbase: 'used' }));
    // The index of two venues: their midpoint (91,233.8 and 91,234.9), named by them.
    expect(snap(r)).toMatchObject({ index: '91234350000', stale: false, source: 'okx,coinbase' });

    // All three gone: the index is stale, the last prices stay with their time, orders and liquidations wait.
    r.venues['okx']!.down = true;
    r.venues['coinbase']!.down = true;
    clock.now += 11_000;
    await until(r, () => expect(snap(r).stale).toBe(true));
    expect(snap(r)).toMatchObject({ index: '91234350000', source: 'okx,coinbase', bids: [], asks: [] });
    expect(r.gateway.source.status(BTC, clock.now)).toMatchObject({ stale: true });
    expect(r.gateway.source.quotes(clock.now)[0]).toMatchObject({ stale: true, latest: '91234.35' });
    expect(r.logs.some((l) => l.level === 'warn' && l.msg.startsWith('index stale'))).toBe(true);

    // They answer again: the index is fresh with all three, with an info line per stream that recovered.
    for (const v of VENUES) r.venues[v]!.down = false;
    clock.now += 1_000;
    await until(
      r,
      () => expect(states(r)).toEqual({ binance: 'used', okx: 'used', coinbase: 'used' }),
      40_000,
    );
    expect(snap(r)).toMatchObject({ index: '91234560000', stale: false, source: 'binance,okx,coinbase' });
    const failed = new Set(
      r.logs.filter((l) => l.msg.startsWith('venue unreachable')).map((l) => String(l.obj['venue'])),
    );
    expect(failed.has('binance')).toBe(true);
    // Each stream that failed says so when it answers again (after its back-off).
    await vi.waitFor(
      () => {
        for (const v of failed)
          expect(r.logs.some((l) => l.msg === 'venue reachable again' && l.obj['venue'] === v)).toBe(true);
      },
      { timeout: 40_000, interval: 100 },
    );
    expect(r.logs.some((l) => l.msg === 'index fresh again')).toBe(true);
  });
});

describe("members' orders against the venues' book", () => {
  let txCount = 0;

  async function funded(l: LiveEngine, name: string, usdt: bigint): Promise<LiveSession> {
    const s = await liveMember(l, name);
    const { address } = (await l.call('/api/recharge/address', { network: 'TRC20' }, s)).data;
    txCount += 1;
    await l.engine.operations.recordChainDeposit({
      network: 'TRC20',
      txHash: txCount.toString(16).padStart(64, 'c'),
      logIndex: 0,
      address,
      amount: usdt,
      blockNumber: 100,
      confirmations: 19,
      status: 'confirmed',
    });
    return s;
  }

  async function engineOn(bandBps?: number): Promise<{ l: LiveEngine; r: Rig }> {
    const clock = { now: T0 };
    const r = await rig(clock);
    await until(r, () => expect(snap(r).asks.length).toBe(11));
    const l = await openLive(5, {
      market: r.gateway.source,
      ...(bandBps === undefined ? {} : { config: { priceBandBps: bandBps } }),
    });
    clock.now = l.clock.now();
    return { l, r };
  }

  const buy = { symbol: 'BTC/USDT', market: 'spot', side: 'buy', type: 'market' } as const;

  it('walk the combined book level by level, the house on the other side', async () => {
    const { l } = await engineOn();
    const ann = await funded(l, 'ann', 100_000_000_000n);
    const placed = await l.call('/api/order/place', { ...buy, volume: '0.5' }, ann);
    expect(placed.code).toBe(0);
    const order = placed.data;
    // 0.18 at Binance's 91,234.56, 0.2 at OKX's 91,234.9, 0.08 at Coinbase's 91,235.1, 0.04 at Binance's 91,235.2.
    const value = 0.18 * 91_234.56 + 0.2 * 91_234.9 + 0.08 * 91_235.1 + 0.04 * 91_235.2;
    expect(order).toMatchObject({ status: 'filled', filled: '0.5', fills: 4 });
    expect(Math.abs(Number(order.avgPrice) - value / 0.5)).toBeLessThan(0.000_001);
    const risk = await l.engine.operations.houseRisk();
    expect(risk.pairs.find((p) => p.symbol === 'BTC/USDT')).toMatchObject({
      spot: '-0.5',
      net: '-0.5',
      source: 'binance,okx,coinbase',
      stale: false,
    });
  });

  it('stop at the price band: what lies beyond it is cancelled', async () => {
    // A band of 0.01% around the index (91,234.56): up to 91,243.68; Binance's 91,250 level is outside.
    const { l } = await engineOn(1);
    const bo = await funded(l, 'bo', 1_000_000_000_000n);
    const placed = await l.call('/api/order/place', { ...buy, volume: '5' }, bo);
    expect(placed.code).toBe(0);
    expect(placed.data).toMatchObject({
      status: 'partial',
      filled: '4.66',
      cancelledVolume: '0.34',
      fills: 10,
    });
  });
});
