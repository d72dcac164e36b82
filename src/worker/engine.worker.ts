/**
 * The demo server's home: a dedicated worker, so engine work (IndexedDB, settling, the market feed) never
 * blocks the page. src/api/transport-worker.ts starts it and talks to it through Comlink.
 */
import { runAsLeader } from '../pwa/leader';
import { SETTLE_EVERY_MS, createEngineHost } from './engine-host';
import { exposeEngineHost } from './expose';

// Every tab has its own worker on the same database: only the tab holding the 'strata:jobs' lock settles
// (docs/PWA.md), so two tabs never run the same confirmation or review twice.
const host = createEngineHost({ settleEveryMs: 0 });
exposeEngineHost(host);
runAsLeader('strata:jobs', () => {
  const timer = setInterval(() => {
    host.settle().catch((error: unknown) => console.error('demo engine: settle failed', error));
  }, SETTLE_EVERY_MS);
  return () => clearInterval(timer);
});
