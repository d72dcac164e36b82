import { describe, expect, it } from 'vitest';
import { movingAverage } from './indicators';

describe('K-line indicators', () => {
  it('a simple moving average of the closes starts once a full period is there', () => {
    const closes = [1, 2, 3, 4, 5].map((value, i) => ({ time: i * 60, value }));
    expect(movingAverage(closes, 3)).toEqual([
      { time: 120, value: 2 },
      { time: 180, value: 3 },
      { time: 240, value: 4 },
    ]);
    expect(movingAverage(closes, 7)).toEqual([]);
    expect(movingAverage(closes, 1).map((p) => p.value)).toEqual([1, 2, 3, 4, 5]);
  });
});
