import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { units } from '../money';
import { bpsToPercent, earningsOfDay, earningsThrough, nominalDaily } from './accrual';

describe('finance accrual arithmetic', () => {
  it('F2 daily earnings are principal x rate / 365: 10,000 USDT at 12% earns 3.287671 a day', () => {
    expect(nominalDaily(units(10_000), 1200)).toBe(3_287_671n);
    expect(earningsThrough(units(10_000), 1200, 30)).toBe(98_630_136n);
    expect(bpsToPercent(1200)).toBe('12.00');
    expect(bpsToPercent(2205)).toBe('22.05');
  });

  it('F3 the days of a term sum exactly to the term figure, each within one micro-unit of nominal', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.integer({ min: 800, max: 2200 }), (p, bps) => {
        let sum = 0n;
        const nominal = nominalDaily(p, bps);
        for (let d = 1; d <= 30; d++) {
          const day = earningsOfDay(p, bps, d);
          expect(day === nominal || day === nominal + 1n).toBe(true);
          sum += day;
        }
        expect(sum).toBe((p * BigInt(bps) * 30n) / 3_650_000n);
      }),
      { numRuns: 200 },
    );
  });
});
