import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ANCHOR_SECONDS, DEFAULT_MARKET_MODEL } from './hourly';
import { MarketSim } from './market';
import { MinuteModel } from './minutes';
import type { Bar } from './minutes';
import { SymbolSeries } from './series';
import { findSymbol, SYMBOLS } from './symbols';
import { INTERVAL_MINUTES, INTERVALS } from './types';
import type { Interval } from './types';

const NOW = Date.UTC(2026, 10, 21, 7, 31, 17, 450);
const sim = new MarketSim(20261121);
const BTC = findSymbol('BTC/USDT')!;

/** Each interval and the next finer one it is built from. */
const PAIRS: [Interval, Interval][] = [
  ['5m', '1m'],
  ['15m', '5m'],
  ['30m', '15m'],
  ['1h', '30m'],
  ['4h', '1h'],
  ['1d', '4h'],
  ['1d', '1h'],
];

function combine(bars: Bar[]): Bar {
  const first = bars[0]!;
  return {
    o: first.o,
    h: Math.max(...bars.map((b) => b.h)),
    l: Math.min(...bars.map((b) => b.l)),
    c: bars[bars.length - 1]!.c,
    v: bars.reduce((sum, b) => sum + b.v, 0),
  };
}

describe('market simulation', () => {
  it('M1 a candle is exactly its finer candles (open of first, close of last, max high, min low, sum volume)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PAIRS),
        fc.constantFrom(...SYMBOLS),
        fc.integer({ min: 0, max: 900 * 86_400_000 }),
        fc.integer({ min: 1, max: 6 }),
        (pair, spec, back, count) => {
          const [coarse, fine] = pair;
          const now = NOW - back;
          const ratio = INTERVAL_MINUTES[coarse] / INTERVAL_MINUTES[fine];
          const big = sim.klineBars(spec, coarse, now, count);
          const small = sim.klineBars(spec, fine, now, count * ratio + ratio);
          for (const { start, bar } of big) {
            const parts = small.filter(
              (s) => s.start >= start && s.start < start + INTERVAL_MINUTES[coarse] * 60,
            );
            expect(parts.length).toBeGreaterThan(0);
            expect(bar).toEqual(combine(parts.map((p) => p.bar)));
          }
        },
      ),
      { numRuns: 60, seed: 4 },
    );
  });

  it('M1 one whole day of 1m candles aggregates to its 1d candle', () => {
    const day = sim.klineBars(BTC, '1d', NOW, 2)[0]!;
    const minutes = sim.klineBars(BTC, '1m', (day.start + 86_400) * 1000, 1000, day.start + 86_400);
    const early = sim.klineBars(BTC, '1m', (day.start + 86_400) * 1000, 440, day.start + 440 * 60);
    const all = [...early, ...minutes];
    expect(all.length).toBe(1440);
    expect(all[0]!.start).toBe(day.start);
    expect(combine(all.map((m) => m.bar))).toEqual(day.bar);
  });

  it('M2 candles are continuous: each opens at the previous close', () => {
    for (const interval of INTERVALS) {
      const bars = sim.klineBars(BTC, interval, NOW, 300);
      for (let i = 1; i < bars.length; i++) expect(bars[i]!.bar.o).toBe(bars[i - 1]!.bar.c);
    }
  });

  it('M3 the same seed gives the same history; another seed another one', () => {
    const again = new MarketSim(20261121);
    const other = new MarketSim(7);
    for (const interval of INTERVALS) {
      expect(again.kline(BTC, interval, NOW, 50)).toEqual(sim.kline(BTC, interval, NOW, 50));
    }
    expect(other.kline(BTC, '1h', NOW, 50)).not.toEqual(sim.kline(BTC, '1h', NOW, 50));
    expect(again.depth(BTC, NOW, 10)).toEqual(sim.depth(BTC, NOW, 10));
    expect(again.quotes(NOW)).toEqual(sim.quotes(NOW));
  });

  it('M4 every interval offers 1,000 candles of history, oldest first, aligned to UTC', () => {
    for (const interval of INTERVALS) {
      const candles = sim.kline(BTC, interval, NOW, 1000);
      expect(candles).toHaveLength(1000);
      const len = INTERVAL_MINUTES[interval] * 60;
      for (let i = 1; i < candles.length; i++) expect(candles[i]!.time - candles[i - 1]!.time).toBe(len);
      expect(candles[0]!.time % len).toBe(0);
      expect(candles[999]!.time).toBeLessThanOrEqual(NOW / 1000);
      expect(candles[999]!.time + len).toBeGreaterThan(NOW / 1000);
    }
  });

  it('M4 `before` pages back through history without overlap', () => {
    const page1 = sim.kline(BTC, '15m', NOW, 100);
    const page2 = sim.kline(BTC, '15m', NOW, 100, page1[0]!.time);
    expect(page2).toHaveLength(100);
    expect(page2[99]!.time + 900).toBe(page1[0]!.time);
    expect(page2[99]!.close).toBe(page1[0]!.open);
    expect(sim.kline(BTC, '1d', NOW, 10, ANCHOR_SECONDS)).toEqual([]);
  });

  it('M5 prices are realistic: positive, consistent wicks, plausible daily volatility, no runaway levels', () => {
    for (const spec of SYMBOLS) {
      const days = sim.klineBars(spec, '1d', NOW, 1000);
      const closes = days.map((d) => d.bar.c);
      for (const { bar } of days) {
        expect(bar.l).toBeGreaterThan(0);
        expect(bar.h).toBeGreaterThanOrEqual(Math.max(bar.o, bar.c));
        expect(bar.l).toBeLessThanOrEqual(Math.min(bar.o, bar.c));
        expect(bar.v).toBeGreaterThan(0);
      }
      const returns = closes.slice(1).map((c, i) => Math.log(c / closes[i]!));
      const sd = Math.sqrt(returns.reduce((s, r) => s + r * r, 0) / returns.length);
      expect(sd).toBeGreaterThan(0.01);
      expect(sd).toBeLessThan(0.08);
      // No level to stay near (M10): the walk from the reference price stays within what its volatility
      // allows, six standard deviations over the distance in days from the reference.
      const refDay = DEFAULT_MARKET_MODEL.referenceTime / 86_400_000;
      for (const { start, bar } of days) {
        const away = Math.abs(start / 86_400 - refDay) + 1;
        const bound = 6 * spec.dailyVol * Math.sqrt(away) + 0.2;
        expect(Math.abs(Math.log(bar.c / (spec.reference * 1_000_000)))).toBeLessThan(bound);
      }
    }
  });

  it('M5 volatility clusters: squared daily returns are positively autocorrelated', () => {
    const closes = sim.klineBars(BTC, '1h', NOW, 1000).map((d) => d.bar.c);
    const sq = closes.slice(1).map((c, i) => Math.log(c / closes[i]!) ** 2);
    const mean = sq.reduce((a, b) => a + b, 0) / sq.length;
    let num = 0;
    let den = 0;
    for (let i = 0; i < sq.length; i++) {
      den += (sq[i]! - mean) ** 2;
      if (i > 0) num += (sq[i]! - mean) * (sq[i - 1]! - mean);
    }
    expect(num / den).toBeGreaterThan(0.02);
  });

  it('M6 the candle in progress ends at the current price, and the 24h ticker agrees with it', () => {
    const quote = sim.quote(BTC, NOW);
    const last = sim.kline(BTC, '1m', NOW, 1)[0]!;
    expect(last.close).toBe(quote.latest);
    const dayHigh = sim.klineBars(BTC, '1m', NOW, 1000);
    expect(Number(quote.high)).toBeGreaterThanOrEqual(Math.max(...dayHigh.map((d) => d.bar.h)) / 1e6);
    // The running high of a minute never falls and the price stays inside it.
    let prevHigh = 0;
    for (let t = 0; t < 60_000; t += 250) {
      const bar = sim.klineBars(BTC, '1m', NOW - (NOW % 60_000) + t, 1)[0]!.bar;
      expect(bar.h).toBeGreaterThanOrEqual(prevHigh);
      expect(bar.c).toBeLessThanOrEqual(bar.h);
      expect(bar.c).toBeGreaterThanOrEqual(bar.l);
      prevHigh = bar.h;
    }
    expect(Number(quote.change24h)).toBeCloseTo(
      ((Number(quote.latest) - Number(quote.open)) / Number(quote.open)) * 100,
      1,
    );
  });

  it('M6 the 24h window is exact to the millisecond: it opens at the price 24 hours ago and holds every price since', () => {
    for (const now of [NOW, NOW - (NOW % 60_000), NOW + 59_999]) {
      const quote = sim.quote(BTC, now);
      expect(Math.round(Number(quote.open) * 1e6)).toBe(sim.price(BTC, now - 86_400_000));
      let low = Infinity;
      let high = 0;
      for (let t = now - 86_400_000; t <= now; t += 1_000) {
        const p = sim.price(BTC, t);
        low = Math.min(low, p);
        high = Math.max(high, p);
      }
      expect(Number(quote.low) * 1e6).toBeLessThanOrEqual(low + 0.5);
      expect(Number(quote.high) * 1e6).toBeGreaterThanOrEqual(high - 0.5);
    }
    // On a minute boundary the window is exactly the last 1,440 minutes, volume included.
    const edge = NOW - (NOW % 60_000);
    // The 1,440 whole minutes and the one just opening at `edge` (no volume yet).
    const late = sim.klineBars(BTC, '1m', edge, 1000);
    const minutes = [...sim.klineBars(BTC, '1m', edge, 441, late[0]!.start), ...late];
    expect(minutes[0]!.start * 1000).toBe(edge - 86_400_000);
    const quote = sim.quote(BTC, edge);
    expect(minutes).toHaveLength(1441);
    expect(Math.round(Number(quote.volume) * 1e4)).toBe(minutes.reduce((s, m) => s + m.bar.v, 0));
    expect(Number(quote.high) * 1e6).toBe(Math.max(...minutes.map((m) => m.bar.h), sim.price(BTC, edge)));
  });

  it('M7 the book straddles the price with a spread and deepens away from it', () => {
    for (const spec of SYMBOLS) {
      const book = sim.book(spec, NOW, 20);
      expect(book.asks).toHaveLength(20);
      expect(book.asks[0]!.price).toBeGreaterThan(book.mid);
      expect(book.bids[0]!.price).toBeLessThan(book.mid);
      for (let i = 1; i < 20; i++) {
        expect(book.asks[i]!.price).toBeGreaterThan(book.asks[i - 1]!.price);
        expect(book.bids[i]!.price).toBeLessThan(book.bids[i - 1]!.price);
      }
    }
    expect(sim.depth(BTC, NOW, 5).asks[0]).toEqual([
      expect.stringMatching(/^\d+(\.\d+)?$/),
      expect.any(String),
    ]);
  });
});

describe('history is generated when it is asked for (issue 25)', () => {
  const HOUR_MS = 3_600_000;
  /** The hours (since the anchor) whose minutes a call generated, per call of the minute model. */
  function generatedHours(run: () => void): number[] {
    const spy = vi.spyOn(
      MinuteModel.prototype as unknown as { generate(h: number, block: Float64Array): Float64Array },
      'generate',
    );
    try {
      run();
      return spy.mock.calls.map(([h]) => h);
    } finally {
      spy.mockRestore();
    }
  }

  it("the market summary (/home's first read) generates each pair's last day only, no K-line history", () => {
    const fresh = new MarketSim(20261121);
    const hours = generatedHours(() => fresh.quotes(NOW));
    const nowHour = Math.floor(NOW / HOUR_MS) - ANCHOR_SECONDS / 3600;
    // The rolling 24 h window, the funding estimate's 8 hours and the premium's knots (the hour ahead, and
    // each knot's 24-hour momentum): 41 hours of minutes per pair, each generated once (a 1,000-candle 1h
    // chart is 1,000 of them).
    expect(hours.length).toBe(41 * SYMBOLS.length);
    expect(new Set(hours).size).toBe(41);
    expect(Math.min(...hours)).toBeGreaterThanOrEqual(nowHour - 40);
    expect(Math.max(...hours)).toBeLessThanOrEqual(nowHour + 1);
  });

  it('a K-line generated on demand is exactly the one generated after the whole history, in any order', () => {
    const ETH = findSymbol('ETH/USDT')!;
    const asked: Interval[] = ['1m', '15m', '1h', '4h'];
    // Lazily, as the app asks: the summary first, then each chart when it opens.
    const lazy = new MarketSim(20261121);
    lazy.quotes(NOW);
    const onDemand = asked.map((interval) => lazy.kline(ETH, interval, NOW, 1000));
    // Eagerly: the whole span first (every hour of the longest chart's 4,000), then the charts, widest first.
    const eager = new MarketSim(20261121);
    eager.kline(ETH, '4h', NOW, 1000);
    const afterAll = [...asked].reverse().map((interval) => eager.kline(ETH, interval, NOW, 1000));
    expect(onDemand).toEqual(afterAll.reverse());
    expect(onDemand.map((candles) => candles.length)).toEqual([1000, 1000, 1000, 1000]);
    expect(lazy.quotes(NOW)).toEqual(eager.quotes(NOW));
  });

  it("the pairs of one market share the market factor's draws without changing a price", () => {
    // A series with its own copy of the market's draws, against the market's shared one, across the
    // reference time (walked backwards before it, forwards after it).
    const shared = new MarketSim(20261121);
    for (const spec of SYMBOLS) {
      const alone = new SymbolSeries(shared.seed, spec);
      for (const t of [NOW, DEFAULT_MARKET_MODEL.referenceTime - 5 * 86_400_000 + 1234, NOW + 40 * HOUR_MS])
        expect(shared.price(spec, t)).toBe(alone.priceAt(t));
    }
  });
});
