/**
 * Component tests of the market screens: the in-memory engine of ./test-engine
 * with its real feed attached, so `advanceMarket` moves the simulated clock and the screens receive the
 * ticker24hr, Curr, Kline and getQuota messages the worker would forward.
 */
import { createDemoWorkerTransport as engineTransport, feedOf, testClock, testEngine } from './test-engine';

function transport() {
  const inner = engineTransport();
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

// A test file's vi.mock of src/api/transport-worker returns this module.
export { transport as createDemoWorkerTransport, transport as createWorkerTransport };

/** Moves the engine clock and runs what fell due, which emits the market feed for that window. */
export async function advanceMarket(ms: number): Promise<void> {
  testClock.advance(ms);
  await (await testEngine()).settle();
}
