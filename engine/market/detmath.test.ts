import { describe, expect, it } from 'vitest';
import { dexp, dlog } from './detmath';

describe('deterministic exp and log', () => {
  it('M3 agree with Math.exp and Math.log to 1e-14 relative over the range prices use', () => {
    for (let x = -12; x <= 14; x += 0.0137) {
      expect(Math.abs(dexp(x) / Math.exp(x) - 1)).toBeLessThan(1e-14);
      const y = Math.exp(x);
      expect(Math.abs(dlog(y) - Math.log(y))).toBeLessThan(1e-13);
    }
    expect(() => dlog(0)).toThrow(RangeError);
  });
});
