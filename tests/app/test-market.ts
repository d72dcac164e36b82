/**
 * Component tests of the market screens: the account engineer's in-memory engine (../auth/test-engine)
 * with its real feed attached, so `advanceMarket` moves the simulated clock and the screens receive the
 * ticker24hr, Curr, Kline and getQuota messages the worker would forward.
 */
import { feedOf, testClock, testEngine, workerModule as base } from './test-engine';

function transport() {
  const inner = base.createDemoWorkerTransport();
  return {
    ...inner,
    ...feedOf((listener) => {
      let stop: (() => void) | undefined;
      let stopped = false;
      void testEngine().then((engine) => {
        if (!stopped) stop = engine.subscribe(listener);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    }),
  };
}

export const workerModule = { createDemoWorkerTransport: transport, createWorkerTransport: transport };

/** Moves the engine clock and runs what fell due, which emits the market feed for that window. */
export async function advanceMarket(ms: number): Promise<void> {
  testClock.advance(ms);
  await (await testEngine()).settle();
}
