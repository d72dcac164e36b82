import { describe, expect, it } from 'vitest';
import { manualClock } from './index';

describe('manualClock', () => {
  it('starts where it is told and moves only when advanced', () => {
    const clock = manualClock(1_700_000_000_000);
    expect(clock.now()).toBe(1_700_000_000_000);
    clock.advance(5_000);
    expect(clock.now()).toBe(1_700_000_005_000);
  });
});
