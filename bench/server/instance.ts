/**
 * One server instance of bench/server.bench.ts in a process of its own: the real start path
 * (startServer on the environment's settings: DATABASE_URL, DB_SCHEMA, PG_POOL_MAX, WALLET_XPUB...; with
 * LOG_LEVEL other than silent (BENCH_LOG_LEVEL in the bench) it logs as main.ts does) on an ephemeral port, with the bench's engine settings (VIP 1 receive limits
 * lifted and no per-account login lock, so the runs measure transfers and hashing, not the limits). The
 * bench compiles it as `npm run build:server` compiles server/main.ts (esbuild, one bundle next to
 * dist-server/main.js) and runs it with the production start's Node flags; BENCH_TSX=1 runs this file
 * under tsx instead.
 *
 * Prints one line `READY <url> <start-up ms> <rss bytes>` once it listens (start-up: from process start),
 * and stops on SIGTERM. On SIGUSR2 it prints `MEM <json>`: its memory now (process.memoryUsage(), and the
 * hash threads' V8 heaps), then writes a heap snapshot into BENCH_HEAP_DIR when that is set.
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { resolveConfig } from '../../engine/config';
import { openStorage, startServer } from '../../server/app';
import { SqlStore } from '../../server/sql-store';
import { configFromEnv } from '../../server/config';
import { REDACT } from '../../server/http/request-log';

/** What `MEM` reports, in bytes. */
export interface InstanceMemory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** The hash pool's threads and their V8 heaps (in RSS, not in heapTotal). */
  threads: number;
  threadHeapTotal: number;
  threadHeapUsed: number;
  /** Group commit's counts so far (server/group-commit.ts), when it is on. */
  groupCommit?: {
    batches: number;
    units: number;
    reruns: number;
    retries: number;
    solo: number;
    largest: number;
  };
}

const vipLevels = resolveConfig().vipLevels.map((v) =>
  v.level === 1 ? { ...v, dailyReceive: 10n ** 18n, monthlyReceive: 10n ** 18n } : v,
);
const config = { ...configFromEnv(), port: 0 };
// Logs as main.ts writes them (on stdout, read and dropped by the bench), unless LOG_LEVEL is silent.
const storage = await openStorage(config);
const server = await startServer({
  config,
  storage,
  ...(config.logLevel === 'silent'
    ? {}
    : { logger: { level: config.logLevel, redact: { paths: REDACT, censor: '[Redacted]' } } }),
  engineConfig: { vipLevels, loginFailLimit: 1_000_000_000 },
});
const startupMs = Math.round(performance.now());
console.log(`READY ${server.url} ${startupMs} ${process.memoryUsage().rss}`);

const heapDir = process.env['BENCH_HEAP_DIR'];
let snapshots = 0;
process.on('SIGUSR2', () => {
  // The figures first: writing a snapshot grows the process.
  const m = process.memoryUsage();
  server.hashes.heaps().then(
    (heaps) => {
      const memory: InstanceMemory = {
        rss: m.rss,
        heapTotal: m.heapTotal,
        heapUsed: m.heapUsed,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        threads: heaps.threads,
        threadHeapTotal: heaps.heapTotal,
        threadHeapUsed: heaps.heapUsed,
        ...(storage instanceof SqlStore && storage.groupCommit
          ? { groupCommit: { ...storage.groupCommit.stats } }
          : {}),
      };
      if (heapDir) writeHeapSnapshot(join(heapDir, `instance-${process.pid}-${++snapshots}.heapsnapshot`));
      console.log(`MEM ${JSON.stringify(memory)}`);
    },
    (error: unknown) => console.error(error),
  );
});
process.on('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
