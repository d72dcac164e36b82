/**
 * The demo server's home: a dedicated worker, so engine work (IndexedDB, settling, the market feed) never
 * blocks the page. src/api/transport-worker.ts starts it and talks to it through Comlink.
 */
import { relayEngineHost } from '../pwa/engine-relay';
import { createEngineHost } from './engine-host';
import { exposeEngineHost } from './expose';

// Every tab has a worker, but only the one holding the 'strata:engine' lock opens the engine on IndexedDB
// and runs its jobs; the others forward to it (docs/PWA.md), so the database has one writer.
exposeEngineHost(relayEngineHost(() => createEngineHost()));
