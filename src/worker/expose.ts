/**
 * The Comlink face of an EngineHost: decodes uploads, proxies the feed listener back to the main thread and
 * releases it on unsubscribe so a closed screen leaves nothing behind in the worker.
 */
import * as Comlink from 'comlink';
import type { Endpoint } from 'comlink';
import type { EngineHost } from './engine-host';
import { fromMultipartBody, isMultipartBody, type WorkerApi } from './protocol';

export function workerApi(host: EngineHost): WorkerApi {
  return {
    handle: (request) =>
      host.handle(
        isMultipartBody(request.body) ? { ...request, body: fromMultipartBody(request.body) } : request,
      ),
    subscribe(listener) {
      const unsubscribe = host.subscribe((message) => {
        // A listener on a closed page rejects; the feed must not stop for the others.
        void Promise.resolve(listener(message)).catch(() => undefined);
      });
      return Comlink.proxy(() => {
        unsubscribe();
        (listener as unknown as Comlink.Remote<unknown>)[Comlink.releaseProxy]();
      });
    },
    now: () => host.now(),
    advance: (ms) => host.advance(ms),
    reset: () => host.reset(),
  };
}

export function exposeEngineHost(host: EngineHost, endpoint?: Endpoint): void {
  Comlink.expose(workerApi(host), endpoint);
}
