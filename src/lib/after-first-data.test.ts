import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstData, holdForFirstData, noteFirstData, resetFirstData } from './after-first-data';

/** Whether `promise` has settled after the microtasks queued so far. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('background work waits for the first data (docs/PWA.md "The data path")', () => {
  afterEach(() => {
    resetFirstData();
    vi.useRealTimers();
  });

  it('without a hold (a screen whose data needs the sync), nothing waits', async () => {
    expect(await settled(afterFirstData())).toBe(true);
  });

  it('with a hold (/home), background work starts once the screen notes its data, not before', async () => {
    holdForFirstData();
    const waiting = afterFirstData();
    expect(await settled(waiting)).toBe(false);
    noteFirstData();
    expect(await settled(waiting)).toBe(true);
    expect(await settled(afterFirstData())).toBe(true);
  });

  it('a screen that never notes its data holds nothing back for more than the cap', async () => {
    vi.useFakeTimers();
    holdForFirstData(10_000);
    const waiting = afterFirstData();
    vi.advanceTimersByTime(9_999);
    expect(await settled(waiting)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(waiting)).toBe(true);
  });
});
