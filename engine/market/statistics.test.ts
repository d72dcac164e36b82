/**
 * The series moves like a market (issue 24 item 5; docs/TRADING.md "Market model"), on a fixed seed: pairs
 * move together minute by minute (one market factor), volatility clusters (the size of one minute's move
 * predicts the next one's), daily returns have fat tails, and the same seed gives the same series.
 */
import { describe, expect, it } from 'vitest';
import { HourlyPath } from './hourly';
import { MarketSim } from './market';
import { seed32 } from './rng';
import { ANCHOR_MINUTE } from './series';
import { findSymbol } from './symbols';

const SEED = 20261121;
const BTC = findSymbol('BTC')!;
const ETH = findSymbol('ETH')!;
/** The week of minutes before 2026-11-21 00:00 UTC. */
const END_MINUTE = Date.UTC(2026, 10, 21) / 60_000 - ANCHOR_MINUTE;
const WEEK = 7 * 1440;

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function correlation(a: readonly number[], b: readonly number[]): number {
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** Autocorrelation at `lag`: the correlation of the series with itself `lag` steps later. */
export function autocorrelation(xs: readonly number[], lag: number): number {
  return correlation(xs.slice(lag), xs.slice(0, -lag));
}

/** Sample excess kurtosis (m4 / m2^2 - 3): 0 for a normal law. */
export function excessKurtosis(xs: readonly number[]): number {
  const m = mean(xs);
  let m2 = 0;
  let m4 = 0;
  for (const x of xs) {
    m2 += (x - m) ** 2;
    m4 += (x - m) ** 4;
  }
  m2 /= xs.length;
  m4 /= xs.length;
  return m4 / (m2 * m2) - 3;
}

/** One-minute log returns (close over open) of the served minute candles. */
function minuteReturns(sim: MarketSim, spec: typeof BTC, from: number, to: number): number[] {
  const minutes = sim.get(spec).minutes;
  const out: number[] = [];
  for (let m = from; m < to; m++) {
    const bar = minutes.minute(m);
    out.push(Math.log(bar.c / bar.o));
  }
  return out;
}

/**
 * Daily log returns over `days` days from the reference day (2026-01-01): the hourly skeleton's price at
 * each UTC midnight, which the minute candles reproduce exactly (minutes.ts pins every hour's ends).
 */
function dailyReturns(seed: number, spec: typeof BTC, days: number): number[] {
  const path = new HourlyPath(seed32(seed), spec);
  const first = path.refDay * 24;
  const x = [path.hour(first).x0];
  for (let d = 0; d < days; d++) x.push(path.hour(first + d * 24 + 23).x1);
  return x.slice(1).map((v, i) => v - x[i]!);
}

describe('the series moves like a market (seed 20261121)', () => {
  const sim = new MarketSim(SEED);
  const btc = minuteReturns(sim, BTC, END_MINUTE - WEEK, END_MINUTE);
  const eth = minuteReturns(sim, ETH, END_MINUTE - WEEK, END_MINUTE);

  it('BTC and ETH one-minute returns are correlated in 0.6-0.9 (one market factor); returns themselves are not autocorrelated', () => {
    const rho = correlation(btc, eth);
    expect(rho).toBeGreaterThanOrEqual(0.6);
    expect(rho).toBeLessThanOrEqual(0.9);
    // 10,080 minutes: the standard error of a lag-1 autocorrelation is about 0.01.
    expect(Math.abs(autocorrelation(btc, 1))).toBeLessThan(0.05);
  });

  it('volatility clusters: the lag-1 autocorrelation of |r| is above 0.1 at one minute and still above 0.1 at two', () => {
    const abs = btc.map(Math.abs);
    expect(autocorrelation(abs, 1)).toBeGreaterThan(0.1);
    expect(autocorrelation(abs, 2)).toBeGreaterThan(0.1);
    expect(autocorrelation(eth.map(Math.abs), 1)).toBeGreaterThan(0.1);
  });

  it('daily returns have fat tails: excess kurtosis above 3 over 1,000 days (a normal law has 0)', () => {
    for (const spec of [BTC, ETH]) {
      const daily = dailyReturns(SEED, spec, 1000);
      expect(excessKurtosis(daily), spec.symbol).toBeGreaterThan(3);
      // The daily volatility stays the pair's own (jumps and t tails take their share of it, not more).
      const sd = Math.sqrt(mean(daily.map((r) => r * r)));
      expect(sd, spec.symbol).toBeGreaterThan(spec.dailyVol * 0.8);
      expect(sd, spec.symbol).toBeLessThan(spec.dailyVol * 1.25);
    }
  });

  it('same seed, same series; another seed, another series', () => {
    const again = new MarketSim(SEED);
    expect(minuteReturns(again, BTC, END_MINUTE - 600, END_MINUTE)).toEqual(btc.slice(-600));
    const other = new MarketSim(SEED + 1);
    expect(minuteReturns(other, BTC, END_MINUTE - 600, END_MINUTE)).not.toEqual(btc.slice(-600));
    expect(dailyReturns(SEED, ETH, 30)).toEqual(dailyReturns(SEED, ETH, 30));
  });
});
