/**
 * The demo server's home: a dedicated worker, so engine work (IndexedDB, settling, the market feed) never
 * blocks the page. src/api/transport-worker.ts starts it and talks to it through Comlink.
 */
import { createEngineHost } from './engine-host';
import { exposeEngineHost } from './expose';

exposeEngineHost(createEngineHost());
