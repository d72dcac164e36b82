/**
 * The demo-mode transport: the engine answers from a Web Worker (src/worker/engine.worker.ts), so the main
 * thread never imports or runs it. Same shape as every other transport, plus the real-time feed and the demo
 * tools (fast-forward, reset) that only demo mode has.
 */
import * as Comlink from 'comlink';
import type { Endpoint } from 'comlink';
import type { FeedMessage } from '../../engine/index';
import { toMultipartBody, transferablesOf, type WorkerApi } from '../worker/protocol';
import type { Transport } from './transport';

export interface DemoControls {
  /** Fast-forwards the engine's clock; jobs that fall due run before this resolves. Answers the new time. */
  advance(ms: number): Promise<number>;
  /** Deletes all demo data and starts again at the real time. */
  reset(): Promise<void>;
  /** The engine's time in ms (wall clock plus fast-forward). */
  now(): Promise<number>;
  /** The same, synchronously, from the offset last learnt (call now() once at start; advance/reset update it). */
  clock(): number;
}

/**
 * `request` takes a FormData body for uploads: each File crosses as { name, type, bytes } and the worker
 * rebuilds the FormData the engine reads. The client's abort signal cannot cross (nor cancel engine work);
 * the client's own timeout still rejects the call.
 */
export interface WorkerTransport extends Transport {
  /** The real-time feed, the same messages the server's WebSocket carries. */
  subscribe(listener: (message: FeedMessage) => void): () => void;
  /** The same feed in the batches the worker sends (what the engine emitted in one turn, in order). */
  subscribeBatches(listener: (messages: readonly FeedMessage[]) => void): () => void;
  demo: DemoControls;
  /** Ends the worker (tests, and switching to live mode). */
  close(): void;
}

export function createWorkerTransport(
  endpoint: Endpoint,
  terminate: () => void = () => undefined,
): WorkerTransport {
  const api = Comlink.wrap<WorkerApi>(endpoint);
  const listeners = new Set<(messages: readonly FeedMessage[]) => void>();
  // One remote subscription fans out to every local listener: one proxy and one message per feed event, however
  // many screens listen.
  let remote: Promise<unknown> | null = null;
  const dispatch = (messages: FeedMessage[]): void => {
    for (const listener of listeners) listener(messages);
  };
  // The engine's clock runs ahead of the wall clock by the fast-forward offset; remember it from every answer
  // that reports the engine time, so countdowns can read it synchronously.
  let offset = 0;
  const learn = (engineNow: number): number => {
    offset = engineNow - Date.now();
    return engineNow;
  };

  return {
    async request({ method, path, headers: given, body }) {
      // The engine names the member's devices from the User-Agent, which a browser sends over HTTP itself.
      const headers = { 'User-Agent': navigator.userAgent, ...given };
      const wire =
        body instanceof FormData
          ? await toMultipartBody(body).then((multipart) =>
              Comlink.transfer({ method, path, headers, body: multipart }, transferablesOf(multipart)),
            )
          : { method, path, headers, body };
      const response = await api.handle(wire);
      return { status: response.status, body: response.body };
    },
    subscribeBatches(listener) {
      listeners.add(listener);
      remote ??= api.subscribe(Comlink.proxy(dispatch));
      return () => {
        listeners.delete(listener);
      };
    },
    subscribe(listener) {
      return this.subscribeBatches((messages) => {
        for (const message of messages) listener(message);
      });
    },
    demo: {
      advance: (ms) => api.advance(ms).then(learn),
      reset: () =>
        api.reset().then(() =>
          api
            .now()
            .then(learn)
            .then(() => undefined),
        ),
      now: () => api.now().then(learn),
      clock: () => Date.now() + offset,
    },
    close() {
      // Terminating takes the worker's side of the subscription with it; nothing to unsubscribe remotely.
      listeners.clear();
      remote = null;
      terminate();
    },
  };
}

let shared: WorkerTransport | undefined;

/**
 * The engine worker index.html's starter script created as the shell painted (scripts/vite-shell.ts), so the
 * engine boots while the app's own code loads; taken once (a reset or a closed transport makes a new one).
 */
function adoptStartedWorker(): Worker | undefined {
  const page = globalThis as { __strataEngine?: Worker };
  const worker = page.__strataEngine;
  delete page.__strataEngine;
  return worker;
}

/**
 * The transport demo mode uses in the browser: one worker per page, so the API client, the socket's feed
 * adapter and the demo tools panel all reach the same engine by calling this.
 */
export function createDemoWorkerTransport(): WorkerTransport {
  if (shared) return shared;
  const worker =
    adoptStartedWorker() ??
    new Worker(new URL('../worker/engine.worker.ts', import.meta.url), {
      type: 'module',
      name: 'strata-engine',
    });
  // A worker that fails to load leaves calls to the client's timeout; say why in the console at least.
  worker.addEventListener('error', (event) => console.error('demo engine worker failed:', event.message));
  const transport = createWorkerTransport(worker, () => {
    worker.terminate();
    shared = undefined;
  });
  void transport.demo.now().catch(() => undefined);
  shared = transport;
  return transport;
}
