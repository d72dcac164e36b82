import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idleGc, lowMemoryCollect, type IdleGc } from '../../../server/idle-gc';

describe('idle garbage collection (server/idle-gc.ts)', () => {
  let idle: IdleGc | null = null;
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    idle?.stop();
    idle = null;
    vi.useRealTimers();
  });

  it('collects once after start, once per busy-then-idle turn, never while requests arrive', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const onCollect = vi.fn();
    idle = idleGc({ everyMs: 1_000, collect, onCollect });
    // The start-up's garbage: the first quiet period collects it.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(onCollect).toHaveBeenCalledTimes(1);
    expect(onCollect.mock.calls[0]?.[0]).toMatchObject({
      before: expect.any(Number) as number,
      after: expect.any(Number) as number,
    });
    // Idle and nothing new: no second collection.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(collect).toHaveBeenCalledTimes(1);

    // Busy for five periods: a request in each, no collection.
    for (let i = 0; i < 5; i++) {
      idle.request();
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(collect).toHaveBeenCalledTimes(1);
    // The first period without a request collects, once.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(collect).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(2);
    expect(idle.collections).toBe(2);
  });

  it('runs one collection at a time', async () => {
    let finish: () => void = () => undefined;
    const collect = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    idle = idleGc({ everyMs: 1_000, collect });
    await vi.advanceTimersByTimeAsync(1_000);
    // Work and idle again while the first collection is still running: no second one meanwhile.
    idle.request();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(collect).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(idle.collections).toBe(1);
    // The turn that waited collects at the next look.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('reports a failed collection once and tries no more (a Node without the inspector fails every time)', async () => {
    const collect = vi.fn(() => Promise.reject(new Error('no inspector')));
    const onError = vi.fn();
    idle = idleGc({ everyMs: 1_000, collect, onError });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'no inspector' }));
    for (let i = 0; i < 3; i++) {
      idle.request();
      await vi.advanceTimersByTimeAsync(2_000);
    }
    expect(collect).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(idle.collections).toBe(0);
  });

  it('does nothing when turned off, or once stopped', async () => {
    const collect = vi.fn(() => Promise.resolve());
    idle = idleGc({ everyMs: 0, collect });
    idle.request();
    await vi.advanceTimersByTimeAsync(60_000);
    idle.stop();
    idle = idleGc({ everyMs: 1_000, collect });
    idle.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).not.toHaveBeenCalled();
  });
});

describe('lowMemoryCollect', () => {
  it('collects through an in-process inspector session and closes it', async () => {
    await expect(lowMemoryCollect()).resolves.toBeUndefined();
    // A second one opens its own session: nothing was left connected.
    await expect(lowMemoryCollect()).resolves.toBeUndefined();
  });
});
