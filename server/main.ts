/**
 * `npm run server`: the live-mode server from the environment (docs/SERVER.md). Stops cleanly on SIGINT
 * and SIGTERM, so the last unit of work is committed and the background-work lease handed back.
 */
import { startServer } from './app';
import { configFromEnv } from './config';

const config = configFromEnv();
const server = await startServer({ config });
const storage =
  config.storage === 'memory' ? 'memory' : config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
console.log(`Strata server on ${server.url} (storage: ${storage}, demo: ${config.demo})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  });
}
