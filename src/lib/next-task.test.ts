import { describe, expect, it } from 'vitest';
import { whenSettled, type SettleHost } from './next-task';

/** A window stand-in whose load, idle periods and timers the test drives by hand. */
function fakeHost(readyState: DocumentReadyState, idle = true) {
  const loads: (() => void)[] = [];
  const idles: IdleRequestCallback[] = [];
  const timers: { at: number; run: () => void }[] = [];
  const host: SettleHost = {
    document: { readyState },
    addEventListener: (_type, listener) => void loads.push(listener),
    setTimeout: (run, ms) => void timers.push({ at: ms, run }),
  };
  if (idle) host.requestIdleCallback = (callback) => idles.push(callback);
  const idlePeriod = (ms: number, didTimeout = false) =>
    idles.shift()?.({ didTimeout, timeRemaining: () => ms });
  return { host, loads, idles, timers, idlePeriod };
}

const settled = (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  return async () => {
    await Promise.resolve();
    await Promise.resolve();
    return done;
  };
};

describe('whenSettled', () => {
  it('waits for the load, then for an idle period long enough to mean nothing else is scheduled', async () => {
    const fake = fakeHost('loading');
    const done = settled(whenSettled({}, fake.host));
    expect(fake.idles).toHaveLength(0);
    fake.loads.forEach((load) => load());
    expect(fake.idles).toHaveLength(1);
    // A short idle gap between frames or tasks is not quiet: it asks again.
    fake.idlePeriod(8);
    expect(await done()).toBe(false);
    expect(fake.idles).toHaveLength(1);
    fake.idlePeriod(49);
    expect(await done()).toBe(true);
  });

  it('starts at once on a page already loaded, and gives up waiting when the idle request times out', async () => {
    const fake = fakeHost('complete');
    const done = settled(whenSettled({}, fake.host));
    expect(fake.idles).toHaveLength(1);
    fake.idlePeriod(0, true);
    expect(await done()).toBe(true);
  });

  it('stops asking for idle periods once the cap has settled it', async () => {
    const fake = fakeHost('complete');
    const done = settled(whenSettled({ maxMs: 5_000 }, fake.host));
    fake.timers[0]?.run();
    expect(await done()).toBe(true);
    // The idle callback already requested comes, short as every one under Lighthouse: no new request.
    fake.idlePeriod(8);
    expect(fake.idles).toHaveLength(0);
  });

  it('resolves after maxMs whatever happens, and without idle callbacks a while after the load', async () => {
    const busy = fakeHost('loading');
    const done = settled(whenSettled({ maxMs: 7_000 }, busy.host));
    expect(busy.timers.map((t) => t.at)).toEqual([7_000]);
    busy.timers[0]?.run();
    expect(await done()).toBe(true);

    const old = fakeHost('complete', false);
    const later = settled(whenSettled({ fallbackMs: 1_500 }, old.host));
    expect(old.timers.map((t) => t.at)).toEqual([10_000, 1_500]);
    old.timers[1]?.run();
    expect(await later()).toBe(true);
  });
});
