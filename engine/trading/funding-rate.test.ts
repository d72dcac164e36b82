/**
 * Funding that behaves like a real basis (issue 24, K12; docs/TRADING.md "Mark price"): over 90 days the
 * simulated premium drifts with the market, leaves the clamp and goes negative, so the 8-hourly rates show
 * positive and negative periods; the same seed gives the same rates.
 */
import { describe, expect, it } from 'vitest';
import { marketFor } from '../market/instance';
import { findSymbol } from '../market/symbols';
import {
  estimatedFundingRate,
  FUNDING_INTERVAL_MS,
  fundingRate,
  fundingRateFromPremium,
  INTEREST_PPM,
  premiumPpm,
  ratePercent,
} from './mark';

const START = Date.UTC(2026, 6, 1);
const TIMES = Array.from({ length: 270 }, (_, i) => START + (i + 1) * FUNDING_INTERVAL_MS);

describe('funding rates over 90 days (seed 7)', () => {
  it('move: above and below the interest rate, negative at times, and the same again for the same seed', () => {
    const sim = marketFor(7);
    const stats: Record<string, unknown> = {};
    for (const base of ['BTC', 'ETH', 'SOL']) {
      const spec = findSymbol(base)!;
      const rates = TIMES.map((t) => fundingRate(sim, spec, t));
      const negative = rates.filter((r) => r < 0).length;
      const above = rates.filter((r) => r > INTEREST_PPM).length;
      const flat = rates.filter((r) => r === INTEREST_PPM).length;
      // Longest run of one sign: periods, not noise.
      let run = 0;
      let longest = 0;
      for (const [i, r] of rates.entries()) {
        run = i > 0 && Math.sign(r) === Math.sign(rates[i - 1]!) ? run + 1 : 1;
        if (r < 0) longest = Math.max(longest, run);
      }
      stats[base] = {
        negative,
        above,
        flat,
        min: Math.min(...rates),
        max: Math.max(...rates),
        longestNegative: longest,
      };
      expect(negative).toBeGreaterThan(10);
      expect(above).toBeGreaterThan(10);
      expect(flat).toBeLessThan(rates.length * 0.9);
      expect(longest).toBeGreaterThanOrEqual(3);
      expect(Math.max(...rates.map(Math.abs))).toBeLessThanOrEqual(7_500);
      expect(TIMES.map((t) => fundingRate(marketFor(7), spec, t))).toEqual(rates);
    }
    console.log(JSON.stringify(stats));
  });
});

describe('the estimated funding rate a quote shows (issue 26)', () => {
  it('averages the premium so far in the interval: in its last minute it is the settled rate but for the last sample; the quote names the next funding time', () => {
    const sim = marketFor(7);
    const spec = findSymbol('BTC')!;
    const at = START + 10 * FUNDING_INTERVAL_MS;
    // Thirty seconds before a funding time: every minute sample but the one at the funding time itself.
    const estimate = estimatedFundingRate(sim, spec, at - 30_000);
    let sum = 0;
    for (let t = at - FUNDING_INTERVAL_MS + 60_000; t < at; t += 60_000) sum += premiumPpm(sim, spec, t);
    expect(estimate).toBe(fundingRateFromPremium(Math.round(sum / 479)));
    // Right after a funding time: the new interval's first premium only.
    expect(estimatedFundingRate(sim, spec, at + 1)).toBe(
      fundingRateFromPremium(premiumPpm(sim, spec, at + 1)),
    );
    const quote = sim.quote(spec, at - 30_000);
    expect(quote.nextFundingTime).toBe(at / 1000);
    expect(quote.fundingRate).toBe(ratePercent(estimate));
    expect(sim.quote(spec, at).nextFundingTime).toBe(at / 1000 + FUNDING_INTERVAL_MS / 1000);
    expect(ratePercent(-125)).toBe('-0.0125');
    expect(ratePercent(100)).toBe('0.0100');
  });
});
