/**
 * A server instance in a process of its own, for tests that kill one (kill.test.ts): the real storage path
 * (openStorage from the environment: DATABASE_URL, DB_SCHEMA), an ephemeral port, no settle timer.
 * Prints `READY <url>` once it listens.
 */
import { startServer } from '../../../server/app';
import { configFromEnv } from '../../../server/config';

const server = await startServer({ config: { ...configFromEnv(), port: 0, settleEveryMs: 0 } });
console.log(`READY ${server.url}`);
process.on('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
