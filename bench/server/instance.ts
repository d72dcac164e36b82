/**
 * One server instance of bench/server.bench.ts in a process of its own: the real start path
 * (startServer on the environment's settings: DATABASE_URL, DB_SCHEMA, PG_POOL_MAX, WALLET_XPUB...) on an
 * ephemeral port, with the bench's engine settings (VIP 1 receive limits lifted and no per-account login
 * lock, so the runs measure transfers and hashing, not the limits). Prints one line
 * `READY <url> <start-up ms> <rss bytes>` once it listens (start-up: from process start), and stops on
 * SIGTERM. With LOG_LEVEL other than silent (BENCH_LOG_LEVEL in the bench) it logs as main.ts does.
 */
import { resolveConfig } from '../../engine/config';
import { startServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { REDACT } from '../../server/http';

const vipLevels = resolveConfig().vipLevels.map((v) =>
  v.level === 1 ? { ...v, dailyReceive: 10n ** 18n, monthlyReceive: 10n ** 18n } : v,
);
const config = { ...configFromEnv(), port: 0 };
// Logs as main.ts writes them (on stdout, read and dropped by the bench), unless LOG_LEVEL is silent.
const server = await startServer({
  config,
  ...(config.logLevel === 'silent'
    ? {}
    : { logger: { level: config.logLevel, redact: { paths: REDACT, censor: '[Redacted]' } } }),
  engineConfig: { vipLevels, loginFailLimit: 1_000_000_000 },
});
const startupMs = Math.round(performance.now());
console.log(`READY ${server.url} ${startupMs} ${process.memoryUsage().rss}`);
process.on('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
