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
 * hash threads' V8 heaps), then writes a heap snapshot into BENCH_HEAP_DIR when that is set. With
 * BENCH_ALLOC_PROF=<dir> it samples every allocation from start (V8's sampling heap profiler, one sample per
 * 32 KiB on average, objects the collector has already freed included: the garbage a request makes) and
 * writes the profile there on SIGTERM, as `<pid>.heapprofile` (DevTools' Memory panel reads it).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { constants, createHistogram, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { resolveConfig } from '../../engine/config';
import { openStorage, startServer } from '../../server/app';
import { SqlStore } from '../../server/sql-store';
import { configFromEnv } from '../../server/config';
import { REDACT } from '../../server/http/request-log';
import type { PhaseReport } from '../../server/group-commit';

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
  /** V8's spaces: bytes reserved for each, and of those in memory (its share of the RSS). */
  spaces?: Record<string, { size: number; physical: number; used: number }>;
  /** Group commit's counts so far (server/group-commit.ts), when it is on. */
  groupCommit?: {
    batches: number;
    units: number;
    reruns: number;
    retries: number;
    solo: number;
    largest: number;
    /** Read statements (one per event-loop turn in which a batch's units read): round trips. */
    reads: number;
    /** The most batches in flight at once. */
    overlapped?: number;
    /** Batch attempts that took hot rows' advisory locks before their snapshot. */
    hotLocked?: number;
  };
  /** Since the last report: the event loop's delay (ms), the GC's pauses by kind, group commit's phases. */
  timing?: InstanceTiming;
}

export interface Spread {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Sum in ms (pauses). */
  total?: number;
}

export interface InstanceTiming {
  seconds: number;
  /** perf_hooks.monitorEventLoopDelay at 1 ms resolution: how late the loop ran its timers. */
  loop: Spread;
  /** GC pauses (PerformanceObserver 'gc'), by kind: scavenge, mark-compact, incremental marking, weak callbacks. */
  gc: Record<string, Spread>;
  phases?: PhaseReport;
}

const allocDir = process.env['BENCH_ALLOC_PROF'];
const inspector = allocDir ? new Session() : null;
if (inspector) {
  inspector.connect();
  await inspector.post('HeapProfiler.startSampling', {
    samplingInterval: 32 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
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

// The event loop's delay and the GC's pauses since the last report (SIGUSR2), for the bench's tail analysis.
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
const pauses = new Map<string, { h: ReturnType<typeof createHistogram>; total: number }>();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } | null };
    const kind = GC_KINDS[detail?.kind ?? -1] ?? 'other';
    let p = pauses.get(kind);
    if (!p) pauses.set(kind, (p = { h: createHistogram(), total: 0 }));
    p.h.record(Math.max(1, Math.round(entry.duration * 1000)));
    p.total += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });
let since = performance.now();
if (storage instanceof SqlStore && storage.groupCommit) storage.groupCommit.timing.keepUnits = true;
const round2 = (n: number) => Math.round(n * 100) / 100;

function timing(): InstanceTiming {
  const ns = (v: number) => round2(v / 1e6);
  const us = (v: number) => round2(v / 1e3);
  const gc: Record<string, Spread> = {};
  for (const [kind, { h, total }] of pauses)
    gc[kind] = {
      count: h.count,
      p50: us(h.percentile(50)),
      p99: us(h.percentile(99)),
      max: us(h.max),
      total: round2(total),
    };
  const out: InstanceTiming = {
    seconds: round2((performance.now() - since) / 1000),
    loop: {
      count: loop.count,
      p50: ns(loop.percentile(50)),
      p99: ns(loop.percentile(99)),
      max: ns(loop.max),
    },
    gc,
    ...(storage instanceof SqlStore && storage.groupCommit
      ? { phases: storage.groupCommit.timing.report() }
      : {}),
  };
  loop.reset();
  pauses.clear();
  since = performance.now();
  return out;
}

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
        spaces: Object.fromEntries(
          getHeapSpaceStatistics().map((sp) => [
            sp.space_name,
            { size: sp.space_size, physical: sp.physical_space_size, used: sp.space_used_size },
          ]),
        ),
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        threads: heaps.threads,
        threadHeapTotal: heaps.heapTotal,
        threadHeapUsed: heaps.heapUsed,
        ...(storage instanceof SqlStore && storage.groupCommit
          ? { groupCommit: { ...storage.groupCommit.stats } }
          : {}),
        timing: timing(),
      };
      if (heapDir) writeHeapSnapshot(join(heapDir, `instance-${process.pid}-${++snapshots}.heapsnapshot`));
      console.log(`MEM ${JSON.stringify(memory)}`);
    },
    (error: unknown) => console.error(error),
  );
});
process.on('SIGTERM', () => {
  const profiled = inspector
    ? inspector.post('HeapProfiler.stopSampling').then(({ profile }) => {
        writeFileSync(join(allocDir ?? '.', `${process.pid}.heapprofile`), JSON.stringify(profile));
      })
    : Promise.resolve();
  profiled
    .then(() => server.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
