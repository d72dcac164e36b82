/**
 * The Comlink face of an EngineHost: decodes uploads, proxies the feed listener back to the main thread and
 * releases it on unsubscribe so a closed screen leaves nothing behind in the worker. The feed crosses in
 * batches: what the engine emits in one turn (a market tick's tickers, candles and books) is one call.
 */
import * as Comlink from 'comlink';
import type { Endpoint } from 'comlink';
import type { FeedMessage } from '../../engine/index';
import type { EngineHost } from './engine-host';
import { fromMultipartBody, isMultipartBody, type WorkerApi } from './protocol';

export function workerApi(host: EngineHost): WorkerApi {
  return {
    handle: (request) =>
      host.handle(
        isMultipartBody(request.body) ? { ...request, body: fromMultipartBody(request.body) } : request,
      ),
    subscribe(listener) {
      let batch: FeedMessage[] = [];
      const flush = () => {
        const messages = batch;
        batch = [];
        // A listener on a closed page rejects; the feed must not stop for the others.
        void Promise.resolve(listener(messages)).catch(() => undefined);
      };
      const unsubscribe = host.subscribe((message) => {
        if (batch.push(message) === 1) setTimeout(flush, 0);
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
