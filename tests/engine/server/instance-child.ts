/**
 * A server instance in a process of its own, for tests that kill or stop one (kill.test.ts, ops.test.ts,
 * tests/e2e/balancer.test.ts): the real storage path (openStorage from the environment: DATABASE_URL,
 * DB_SCHEMA), PORT when set (else an ephemeral port), /metrics only when METRICS_PORT is set, no settle timer
 * unless SETTLE_EVERY_MS is set. Logs (LOG_LEVEL, default silent) go to stderr. Prints `READY <url>
 * <metrics url or ->` once it listens; SIGTERM stops it as server/main.ts does (drain, then exit 0).
 */
import { startServer } from '../../../server/app';
import { configFromEnv } from '../../../server/config';
import { requestIdMixin } from '../../../server/http/request-log';

const env = process.env;
const config = configFromEnv();
const level = env['LOG_LEVEL'] ?? 'silent';
const server = await startServer({
  config: {
    ...config,
    port: env['PORT'] ? config.port : 0,
    metricsPort: env['METRICS_PORT'] ? config.metricsPort : null,
    settleEveryMs: env['SETTLE_EVERY_MS'] ? config.settleEveryMs : 0,
  },
  logger: level === 'silent' ? undefined : { level, mixin: requestIdMixin, stream: process.stderr },
});
console.log(`READY ${server.url} ${server.metricsUrl ?? '-'}`);
process.on('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
