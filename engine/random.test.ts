import { describe, expect, it } from 'vitest';
import { createRandom } from './random';

describe('seeded random', () => {
  it('G13 the same seed gives the same sequence', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    expect(Array.from({ length: 5 }, () => a.u32())).toEqual(Array.from({ length: 5 }, () => b.u32()));
    expect(createRandom(43).u32()).not.toBe(createRandom(42).u32());
  });

  it('G14 forked streams do not disturb each other', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    a.fork('market').u32();
    a.fork('market').u32();
    expect(a.fork('addresses').u32()).toBe(b.fork('addresses').u32());
    expect(a.fork('x').u32()).not.toBe(a.fork('y').u32());
  });

  it('G15 int() stays in range and next() in [0, 1)', () => {
    const r = createRandom(1);
    for (let i = 0; i < 2000; i++) {
      const n = r.int(-3, 3);
      expect(n).toBeGreaterThanOrEqual(-3);
      expect(n).toBeLessThanOrEqual(3);
      const f = r.next();
      expect(f >= 0 && f < 1).toBe(true);
    }
  });
});
