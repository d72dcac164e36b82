import { describe, expect, it } from 'vitest';
import { depthCurves } from './depth';

describe('depth chart geometry', () => {
  it('accumulates each side and scales both into the box, the deeper side reaching the top', () => {
    const c = depthCurves(
      [
        ['99', '1'],
        ['98', '2'],
      ],
      [
        ['101', '1'],
        ['102', '1'],
      ],
      100,
      10,
    )!;
    expect(c.totalBids).toBe(3);
    expect(c.totalAsks).toBe(2);
    // Prices 98..102 map to 0..100; the 3-unit bid total reaches y = 0.
    expect(c.bids.split(' ')).toContain('0.0,0.0');
    expect(c.asks.split(' ')).toContain('100.0,3.3');
    expect(depthCurves([], [['1', '1']], 100, 10)).toBeNull();
  });
});
