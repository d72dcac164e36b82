/**
 * The index price (server/market-data/index-price.ts, docs/TRADING.md "Index price"): the weighted median of
 * the fresh venues, without a venue that has not updated for the stale time or that is an outlier, stale
 * when too few are left. Exact to the micro-USDT.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeIndex, weightedMedian, type VenuePrice } from '../../../../server/market-data/index-price';
import { decimalText, scaled } from '../../../../server/market-data/decimal';

const NOW = 1_760_000_000_000;
const options = { staleMs: 10_000, outlierBps: 500, minVenues: 2 };
const v = (venue: string, price: number, age = 0, weight = 1): VenuePrice => ({
  venue,
  price: BigInt(price) * 1_000_000n,
  time: NOW - age,
  weight,
});

describe('weighted median', () => {
  it('takes the middle price, midway between the two middle ones on an even count', () => {
    expect(
      weightedMedian([
        { price: 3n, weight: 1 },
        { price: 1n, weight: 1 },
        { price: 2n, weight: 1 },
      ]),
    ).toBe(2n);
    expect(
      weightedMedian([
        { price: 10n, weight: 1 },
        { price: 13n, weight: 1 },
      ]),
    ).toBe(12n);
    // A heavy venue pulls the median to itself.
    expect(
      weightedMedian([
        { price: 1n, weight: 1 },
        { price: 2n, weight: 1 },
        { price: 9n, weight: 3 },
      ]),
    ).toBe(9n);
  });

  it('always answers one of the prices or a midpoint between two of them, within their range', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            price: fc.bigInt({ min: 1n, max: 10n ** 12n }),
            weight: fc.integer({ min: 1, max: 5 }),
          }),
          {
            minLength: 1,
            maxLength: 9,
          },
        ),
        (entries) => {
          const m = weightedMedian(entries);
          const prices = entries.map((e) => e.price);
          const lo = prices.reduce((a, b) => (a < b ? a : b));
          const hi = prices.reduce((a, b) => (a > b ? a : b));
          expect(m >= lo && m <= hi).toBe(true);
          // At most half of the weight lies strictly on either side.
          const total = entries.reduce((s, e) => s + e.weight, 0);
          const below = entries.filter((e) => e.price < m).reduce((s, e) => s + e.weight, 0);
          const above = entries.filter((e) => e.price > m).reduce((s, e) => s + e.weight, 0);
          expect(below * 2 <= total && above * 2 <= total).toBe(true);
        },
      ),
    );
  });
});

describe('the index', () => {
  it('is the median of three fresh venues, and names them', () => {
    expect(
      computeIndex([v('binance', 95_010), v('okx', 95_000), v('coinbase', 95_030)], NOW, options),
    ).toEqual({
      price: 95_010_000_000n,
      stale: false,
      used: ['binance', 'okx', 'coinbase'],
      excluded: [],
    });
  });

  it('leaves out a venue that has not updated for the stale time', () => {
    const r = computeIndex(
      [v('binance', 95_010), v('okx', 95_000, 10_001), v('coinbase', 95_030)],
      NOW,
      options,
    );
    expect(r).toMatchObject({ price: 95_020_000_000n, used: ['binance', 'coinbase'] });
    expect(r.excluded).toEqual([{ venue: 'okx', reason: 'stale' }]);
    // Exactly at the stale time it still counts.
    expect(computeIndex([v('a', 95_000, 10_000), v('b', 95_010)], NOW, options).used).toEqual(['a', 'b']);
  });

  it('leaves out one venue further than the outlier limit from the median', () => {
    const r = computeIndex([v('binance', 95_000), v('okx', 95_100), v('coinbase', 105_000)], NOW, options);
    expect(r).toMatchObject({ price: 95_050_000_000n, used: ['binance', 'okx'] });
    expect(r.excluded).toEqual([{ venue: 'coinbase', reason: 'outlier' }]);
  });

  it('takes the plain median when more than one venue is far from it', () => {
    const r = computeIndex([v('a', 80_000), v('b', 95_000), v('c', 110_000)], NOW, options);
    expect(r).toMatchObject({ price: 95_000_000_000n, used: ['a', 'b', 'c'], stale: false });
  });

  it('is stale when fewer than the minimum of venues are left, and when none has a price', () => {
    expect(
      computeIndex([v('a', 95_000), v('b', 95_000, 20_000), v('c', 95_000, 20_000)], NOW, options),
    ).toMatchObject({
      price: null,
      stale: true,
      used: [],
    });
    expect(
      computeIndex([{ venue: 'a', price: null, time: null, weight: 1 }], NOW, { ...options, minVenues: 1 }),
    ).toMatchObject({ stale: true });
    // An outlier removed below the minimum makes it stale too.
    expect(computeIndex([v('a', 95_000), v('b', 120_000)], NOW, options).stale).toBe(true);
  });

  it('never answers a price outside the fresh venues, and only fresh venues are used', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 90_000, max: 100_000 }), fc.integer({ min: 0, max: 20_000 })), {
          minLength: 3,
          maxLength: 6,
        }),
        (rows) => {
          const prices = rows.map(([p, age], i) => v(`v${i}`, p, age));
          const r = computeIndex(prices, NOW, options);
          const fresh = prices.filter((p) => NOW - (p.time ?? 0) <= options.staleMs);
          if (r.stale) return;
          for (const venue of r.used) expect(fresh.map((f) => f.venue)).toContain(venue);
          const values = fresh.map((f) => f.price!);
          expect(r.price! >= values.reduce((a, b) => (a < b ? a : b))).toBe(true);
          expect(r.price! <= values.reduce((a, b) => (a > b ? a : b))).toBe(true);
        },
      ),
    );
  });
});

describe('venue numbers to exact integers', () => {
  it('recovers the decimal text and rounds as asked', () => {
    expect(decimalText(66363.03)).toBe('66363.03');
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText(1.5e21)).toBe('1500000000000000000000');
    expect(scaled(66363.03, 6, 'floor')).toBe(66_363_030_000n);
    expect(scaled('0.1234567', 6, 'floor')).toBe(123_456n);
    expect(scaled('0.1234567', 6, 'ceil')).toBe(123_457n);
    expect(scaled('0.1234565', 6, 'half-up')).toBe(123_457n);
    expect(scaled('0.1234564', 6, 'half-up')).toBe(123_456n);
    expect(scaled(-1, 6, 'floor')).toBeNull();
    expect(scaled(Number.NaN, 6, 'floor')).toBeNull();
  });
});
