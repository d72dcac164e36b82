/**
 * Demo mode: the engine answers in the page. It is imported dynamically so it stays out of /home's initial
 * chunk; issue 5 moves it into a Web Worker behind the same Transport interface.
 */
import type { Engine } from '../../engine/index';
import { DEMO_SEED, DEMO_STORAGE } from './config';
import type { Transport, TransportRequest, TransportResponse } from './transport';

let engine: Promise<Engine> | undefined;

function loadEngine(): Promise<Engine> {
  if (!engine) {
    const starting = import('../../engine/index').then(({ createEngine }) =>
      createEngine({ storage: DEMO_STORAGE, seed: DEMO_SEED, clock: { now: () => Date.now() } }),
    );
    // A failed start (e.g. IndexedDB blocked) must be retried on the next call, not cached forever.
    starting.catch(() => {
      if (engine === starting) engine = undefined;
    });
    engine = starting;
  }
  return engine;
}

/** What the transport uses of the engine; tests hand in a fake of just this. */
export type EngineCalls = Pick<Engine, 'handle' | 'settle'>;

export function createEngineTransport(load: () => Promise<EngineCalls> = loadEngine): Transport {
  return {
    async request({ signal: _signal, ...request }: TransportRequest): Promise<TransportResponse> {
      const instance = await load();
      // Jobs due by now (confirmations, reviews, accruals) run before the call sees the state.
      await instance.settle();
      return instance.handle(request);
    },
  };
}
