/**
 * The live server over real HTTP (issue 11 bench). On PostgreSQL (DATABASE_URL set): a fresh schema,
 * members seeded by an in-process test server, then BENCH_INSTANCES (default 2) server instances started as
 * processes of their own on that schema (bench/server/instance.ts: the real start path, PG_POOL_MAX each,
 * compiled as `npm run build:server` compiles the server and run with the Node flags of `npm run
 * server:start`; BENCH_TSX=1 runs it under tsx instead),
 * and autocannon in a process of its own spreading its connections over both (bench/server/load.ts:
 * connection i to instance i mod n, as an L4 balancer; no proxy in between). Without DATABASE_URL: one
 * instance in this process, on an in-memory PGlite with BENCH_STORAGE=pglite, else in memory.
 *
 * Prints requests/s, p50 and p99, and the machine's load average, for:
 * - the public market list (POST /api/market/list), 50 connections;
 * - an authenticated transfer (POST /api/transfer/submit, 1 USDT), 50 connections, each its own sender
 *   paying its own recipient (50 disjoint pairs: the measure of throughput);
 * - the same with every connection from one sender to one recipient (two hot rows: contention);
 * - an anonymous read (10 connections) alone, then while 8 connections send wrong passwords for an unknown
 *   username (a dummy PBKDF2 at the production 600,000 iterations, the cost of a real account's wrong
 *   password, on the instances' hash pools);
 * and each instance's start-up time and memory (RSS, its V8 heap, external memory, its hash threads' heaps)
 * after start, after each run and at the end, then checks the ledger (money conserved, no negative balance).
 *
 * `npm run bench -- server`; BENCH_SECONDS (default 20) sets the duration of the first two runs;
 * BENCH_ROUNDS (default 1) repeats the runs that many times on the same instances (sustained load: memory
 * is printed after each); BENCH_CPU_PROF=<dir> has each instance write a V8 CPU profile (--cpu-prof) there;
 * BENCH_HEAP_DIR=<dir> has each instance write a V8 heap snapshot there each time its memory is printed;
 * BENCH_ALLOC_PROF=<dir> has each instance sample its allocations, freed ones included, into a heap profile;
 * BENCH_NODE_FLAGS replaces the production start's Node flags (to compare them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface, type Interface } from 'node:readline';
import { resolveConfig } from '../engine/config';
import { manualClock } from '../engine/index';
import { postgresDriver } from '../server/sql-driver';
import { SqlStore } from '../server/sql-store';
import {
  signUp,
  startTestServer,
  TEST_XPUB,
  type Session,
  type TestServer,
} from '../tests/engine/server/serve';
import { dropSchema, freshSchema, testDriver } from '../tests/engine/server/sql';
import { instanceCommand, underTsx } from './server/compile';
import type { InstanceMemory, InstanceTiming } from './server/instance';
import type { PhaseReport } from '../server/group-commit';
import type { LoadSpec } from './server/load';
import type { OpenLoopResult, OpenLoopSpec } from './server/open-loop';
import { tpcb } from './server/pgbench';
import { fund, seedPairs, type Pair } from './server/seed';
import { postgresBackgroundPids, snapshot, usedBy } from './server/cpu';

/** The application_name of the instances' PostgreSQL connections: how the CPU account finds their backends. */
const APP_NAME = 'strata-bench';

export const name = 'Live server over HTTP (autocannon)';

interface Figures {
  rps: number;
  /** Requests completed in the run. */
  total: number;
  /** CPU ms per completed request: server instances, PostgreSQL (this bench's backends; background), load. */
  cpu: { node: number; pg: number; pgBackground: number; load: number } | null;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  load: string;
}

/**
 * What the CPU account of a run needs: the instances' pids (none when the server runs in this process: its
 * own CPU is then read with process.cpuUsage) and the pids of this bench's PostgreSQL backends.
 */
interface Meter {
  instancePids: () => Array<number | undefined>;
  backendPids: () => Promise<number[]>;
}

let meter: Meter | null = null;

function autocannon(load: LoadSpec): Promise<Figures> {
  return measured(() => run1(load));
}

/** The open-loop load (bench/server/open-loop.ts): a constant arrival rate, latency from each request's due time. */
function openLoop(spec: OpenLoopSpec): Promise<Figures & { open: OpenLoopResult }> {
  let open: OpenLoopResult | null = null;
  return measured(
    () =>
      new Promise<Figures>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', 'bench/server/open-loop.ts', JSON.stringify(spec)],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('exit', () => {
          try {
            const r = JSON.parse(out) as OpenLoopResult;
            open = r;
            resolve({
              rps: r.rps,
              total: r.completed,
              cpu: { node: 0, pg: 0, pgBackground: 0, load: r.cpuMs },
              p50: r.p50,
              p99: r.p99,
              non2xx: r.completed - r.ok,
              errors: r.errors,
              load: loadavg()
                .map((l) => l.toFixed(1))
                .join(' '),
            });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      }),
  ).then((f) => ({ ...f, open: open as unknown as OpenLoopResult }));
}

async function measured(runner: () => Promise<Figures>): Promise<Figures> {
  const pids = meter?.instancePids() ?? [];
  const backendsBefore = (await meter?.backendPids()) ?? [];
  const before = snapshot(pids);
  const ownBefore = process.cpuUsage();
  const figures = await runner();
  const ownMs = ((u) => (u.user + u.system) / 1000)(process.cpuUsage(ownBefore));
  const backendsAfter = (await meter?.backendPids()) ?? [];
  const after = snapshot(pids);
  const n = Math.max(1, figures.total);
  const inProcess = pids.length === 0;
  const backends = new Set([...backendsBefore, ...backendsAfter]);
  const instancePids = new Set(pids);
  const background = postgresBackgroundPids([...after.ms.keys()].filter((p) => !instancePids.has(p)));
  return {
    ...figures,
    cpu: {
      node:
        (inProcess
          ? ownMs
          : usedBy(
              before,
              after,
              pids.filter((p) => p !== undefined),
            )) / n,
      pg: usedBy(before, after, backends) / n,
      pgBackground: usedBy(before, after, background) / n,
      load: (figures.cpu?.load ?? 0) / n,
    },
  };
}

function run1(load: LoadSpec): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server/load.ts', JSON.stringify(load)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        const r = JSON.parse(out) as {
          requests: { average: number; total: number };
          cpuMs: number;
          latency: { p50: number; p99: number };
          non2xx: number;
          errors: number;
        };
        resolve({
          rps: Math.round(r.requests.average),
          total: r.requests.total,
          cpu: { node: 0, pg: 0, pgBackground: 0, load: r.cpuMs },
          p50: r.latency.p50,
          p99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors,
          load: loadavg()
            .map((l) => l.toFixed(1))
            .join(' '),
        });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function show(label: string, f: Figures): void {
  console.log(
    `${label.padEnd(52)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms` +
      `  (load average ${f.load})` +
      (f.errors || f.non2xx ? `  (errors ${f.errors}, non-2xx ${f.non2xx})` : ''),
  );
  const c = f.cpu;
  if (c) {
    const ms = (v: number) => v.toFixed(3);
    console.log(
      `${''.padEnd(52)} CPU per request: server ${ms(c.node)} ms + PostgreSQL ${ms(c.pg)} ms ` +
        `= ${ms(c.node + c.pg)} ms (PostgreSQL background ${ms(c.pgBackground)} ms, load generator ${ms(c.load)} ms)`,
    );
  }
}

interface Instance {
  url: string;
  child: ChildProcess;
  lines: Interface;
  startupMs: number;
  rss: number;
}

/** One server instance in a process of its own on `schema`; resolves once it listens. */
function startInstance(command: string[], schema: string, url: string): Promise<Instance> {
  // BENCH_CPU_PROF=<dir>: each instance writes a V8 CPU profile there when it stops.
  const profile = process.env['BENCH_CPU_PROF'];
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, ...command], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: url,
      DB_SCHEMA: schema,
      DEMO: 'false',
      WALLET_XPUB: TEST_XPUB,
      LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'silent',
      PGAPPNAME: APP_NAME,
      LOGIN_PER_IP: '1000000',
      LOGIN_GLOBAL: '1000000',
      PBKDF2_ITERATIONS: '',
    },
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`instance exited with ${code} before listening`)));
    const ready = (line: string) => {
      const [word, address, startup, rss] = line.split(' ');
      if (word !== 'READY' || !address) return;
      lines.off('line', ready);
      resolve({ url: address, child, lines, startupMs: Number(startup), rss: Number(rss) });
    };
    lines.on('line', ready);
  });
}

/** The instance's memory now (SIGUSR2: it answers one `MEM <json>` line). */
function memoryOf(instance: Instance): Promise<InstanceMemory> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      instance.lines.off('line', read);
      instance.child.off('exit', exited);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('the instance did not report its memory within 60 s'));
    }, 60_000);
    const exited = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`the instance exited (${code ?? signal}) instead of reporting its memory`));
    };
    const read = (line: string) => {
      if (!line.startsWith('MEM ')) return;
      done();
      resolve(JSON.parse(line.slice(4)) as InstanceMemory);
    };
    instance.lines.on('line', read);
    instance.child.on('exit', exited);
    instance.child.kill('SIGUSR2');
  });
}

/** Each instance's memory, one line each. */
async function showMemory(instances: Instance[], when: string): Promise<InstanceMemory[]> {
  const all: InstanceMemory[] = [];
  for (const [i, inst] of instances.entries()) {
    const m = await memoryOf(inst);
    all.push(m);
    console.log(
      `  instance ${i + 1} ${when}: RSS ${mb(m.rss)} (heap ${mb(m.heapUsed)} used of ${mb(m.heapTotal)}, ` +
        `external ${mb(m.external)} with ${mb(m.arrayBuffers)} array buffers; ${m.threads} hash threads, ` +
        `heaps ${mb(m.threadHeapUsed)} used of ${mb(m.threadHeapTotal)})`,
    );
    if (m.spaces)
      console.log(
        `    V8 spaces, in memory of reserved: ` +
          Object.entries(m.spaces)
            .filter(([, sp]) => sp.size > 0)
            .map(([name, sp]) => `${name.replace(/_space$/, '')} ${mb(sp.physical)} of ${mb(sp.size)}`)
            .join(', '),
      );
    if (m.timing) showTiming(m.timing);
    const g = m.groupCommit;
    if (g && g.batches > 0)
      console.log(
        `    group commit so far: ${g.units} units in ${g.batches} transactions (${(g.units / g.batches).toFixed(1)} ` +
          `per batch, largest ${g.largest}; ${(g.reads / g.batches).toFixed(1)} read statements per batch), ${g.reruns} re-runs against a batch mate's writes, ` +
          `${g.retries} batches run again after a conflict, ${g.solo} units run alone after a failed batch, ` +
          `${g.hotLocked ?? 0} batches took hot rows' locks first, at most ${g.overlapped ?? 1} in flight at once`,
      );
  }
  return all;
}

/**
 * Where an instance's time went since its last report: the event loop's delay, the GC's pauses, and group
 * commit's phases per unit (server/group-commit.ts PHASES), p50/p99/max in ms.
 */
function showTiming(t: InstanceTiming): void {
  const gc = Object.entries(t.gc)
    .map(
      ([kind, g]) => `${kind} ${g.count} (p99 ${g.p99}, max ${g.max}, ${Math.round(g.total ?? 0)} ms in all)`,
    )
    .join(', ');
  console.log(
    `    last ${Math.round(t.seconds)} s: event loop delay p50 ${t.loop.p50} ms, p99 ${t.loop.p99} ms, max ${t.loop.max} ms; ` +
      `GC pauses ${gc || 'none'}`,
  );
  const p = t.phases;
  if (p && p.phases.total.count > 0)
    console.log(
      `    group commit, ${p.phases.total.count} units in ${p.batches.count} batches (${p.batches.mean.toFixed(1)} per batch, ` +
        `largest ${p.batches.max}), p50/p99/max ms: ` +
        Object.entries(p.phases)
          .map(([phase, f]) => `${phase} ${f.p50}/${f.p99}/${f.max}`)
          .join(', '),
    );
  if (p?.tail)
    console.log(
      `    the slowest 1% of units, mean ms: ` +
        Object.entries(p.tail)
          .map(([phase, ms]) => `${phase} ${ms}`)
          .join(', '),
    );
}

/**
 * A summary row: where the slowest 1% of units spent their time (group commit's phases, the mean over the
 * instances of each one's slowest 1%), beside the instances' worst event-loop delay and GC pause.
 */
function tailRow(summary: Array<[string, string]>, label: string, memories: InstanceMemory[]): void {
  const tails = memories.flatMap((m) => (m.timing?.phases?.tail ? [m.timing.phases.tail] : []));
  if (tails.length === 0) return;
  const phases = Object.keys(tails[0] ?? {}) as Array<keyof NonNullable<PhaseReport['tail']>>;
  const mean = (phase: (typeof phases)[number]) =>
    Math.round((10 * tails.reduce((sum, t) => sum + t[phase], 0)) / tails.length) / 10;
  const loop = Math.max(...memories.map((m) => m.timing?.loop.max ?? 0));
  const gc = Math.max(...memories.flatMap((m) => Object.values(m.timing?.gc ?? {}).map((g) => g.max)));
  summary.push([
    label,
    `${mean('total')} ms mean: ` +
      phases
        .filter((p) => p !== 'total')
        .map((p) => `${p} ${mean(p)}`)
        .join(', ') +
      `; event loop delay max ${loop} ms, GC pause max ${gc} ms`,
  ]);
}

function stopInstance(instance: Instance): Promise<void> {
  return new Promise((resolve) => {
    if (instance.child.exitCode !== null) return resolve();
    instance.child.removeAllListeners('exit');
    instance.child.once('exit', () => resolve());
    instance.child.kill('SIGTERM');
  });
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export async function run(): Promise<void> {
  const seconds = Number(process.env['BENCH_SECONDS'] ?? 20);
  const url = process.env['DATABASE_URL'];
  const onSql = Boolean(url) || process.env['BENCH_STORAGE'] === 'pglite';
  const schema = freshSchema();
  const count = Number(process.env['BENCH_INSTANCES'] ?? 2);
  const rounds = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 1));
  const tsx = underTsx();
  const command = url ? await instanceCommand('bench/server/instance.ts') : [];
  // Members are made on a test server (its manual clock starts now): 50 disjoint pairs, and ann and bob
  // for the one-sender run.
  const storage = onSql ? await SqlStore.open(await testDriver(), { schema }) : 'memory';
  const vipLevels = resolveConfig().vipLevels.map((v) =>
    v.level === 1 ? { ...v, dailyReceive: 10n ** 18n, monthlyReceive: 10n ** 18n } : v,
  );
  const seeder: TestServer = await startTestServer({
    storage,
    clock: manualClock(Date.now()),
    config: {
      pbkdf2Iterations: url ? 1_000 : undefined,
      loginPerIpPerMinute: 1_000_000,
      loginGlobalPerMinute: 1_000_000,
      captchaPerIpPerMinute: 1_000_000,
    },
    engineConfig: { vipLevels, loginFailLimit: 1_000_000_000 },
  });
  const instances: Instance[] = [];
  // BENCH_RUNS=pgbench,market,transfer,hot,open,hotopen,read,logins (default all): the runs to make;
  // BENCH_ROUNDS repeats them (pgbench once).
  const only = process.env['BENCH_RUNS']?.split(',');
  const wants = (run: string) => !only || only.includes(run);
  // BENCH_OPEN_RATES (default 250,500,1000): the open loop's offered rates; BENCH_HOT_RATE (default 250).
  const openRates = (process.env['BENCH_OPEN_RATES'] ?? '250,500,1000').split(',').map(Number);
  const hotRate = Number(process.env['BENCH_HOT_RATE'] ?? 250);
  /** The table printed at the end. */
  const summary: Array<[string, string]> = [];
  let pgbenchTps = 0;
  let peak = 0;
  let closeSeeder: (() => Promise<void>) | null = () => seeder.close();
  let closeWatch: (() => Promise<void>) | null = null;
  try {
    const pairs: Pair[] = await seedPairs(seeder, 50);
    const ann: Session = await signUp(seeder, 'ann');
    const bob = await signUp(seeder, 'bob');
    await fund(seeder, [ann], '1000000', 1);
    await fund(seeder, [bob], '100', 2);
    const vip = await seeder.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob);
    if (vip.code !== 0) throw new Error(`Buyvip: ${vip.code} ${vip.msg}`);

    let urls: string[];
    let kind: string;
    if (url) {
      await seeder.close();
      closeSeeder = null;
      for (let i = 0; i < count; i++) instances.push(await startInstance(command, schema, url));
      const watch = await postgresDriver(url, { poolSize: 1 });
      closeWatch = () => watch.close();
      meter = {
        instancePids: () => instances.map((i) => i.child.pid),
        backendPids: async () =>
          (
            await watch.query<{ pid: number }>(
              `SELECT pid FROM pg_stat_activity WHERE application_name = $1`,
              [APP_NAME],
            )
          ).rows.map((r) => r.pid),
      };
      urls = instances.map((i) => i.url);
      const pool = process.env['PG_POOL_MAX'] ?? '10';
      const start = tsx ? 'tsx' : `compiled, node ${command.join(' ')}`;
      kind = `PostgreSQL, ${count} instances (own processes, ${start}, PG_POOL_MAX ${pool} each)`;
      for (const [i, inst] of instances.entries())
        console.log(`instance ${i + 1}: start-up ${inst.startupMs} ms, RSS ${mb(inst.rss)} when listening`);
    } else {
      urls = [seeder.url];
      kind = `${onSql ? 'PGlite' : 'memory'}, one instance in this process`;
    }
    console.log(`storage: ${kind}, ${seconds} s per run, load average ${loadavg()[0]?.toFixed(1)} before`);
    if (url && wants('pgbench')) {
      // The database alone, same concurrency, before the instances are loaded (they sit idle meanwhile).
      const f = await tpcb(url, 50, seconds);
      const load = loadavg()
        .map((l) => l.toFixed(1))
        .join(' ');
      if ('missing' in f) {
        console.log(`pgbench TPC-B: not run (${f.missing}); the server's figures stand alone`);
        summary.push(['pgbench TPC-B, 50 clients', `not run: ${f.missing}`]);
      } else {
        pgbenchTps = f.tps;
        console.log(
          `${'pgbench TPC-B, 50 clients, prepared'.padEnd(52)} ${String(Math.round(f.tps)).padStart(6)} tps    ` +
            `mean ${f.latencyMs} ms  (scale ${f.scale}, ${f.seconds} s; load average ${load})`,
        );
        summary.push([
          `pgbench TPC-B, 50 clients, prepared (scale ${f.scale})`,
          `${Math.round(f.tps)} tps, mean ${f.latencyMs} ms`,
        ]);
      }
    }
    await showMemory(instances, 'after start');

    const read = { urls, method: 'POST' as const, body: '{}' };
    // An envelope that refuses still answers HTTP 200 (autocannon's non-2xx would not see it): checked once.
    for (const u of urls) {
      const answer = await fetch(`${u}/api/market/list`, { method: 'POST', body: '{}' });
      const { code, msg } = (await answer.json()) as { code: number; msg: string };
      if (code !== 0) console.log(`market list on ${u} answers code ${code}: ${msg}`);
    }
    const market = { ...read, urls: urls.map((u) => `${u}/api/market/list`) };
    const transfer = urls.map((u) => `${u}/api/transfer/submit`);
    /** Transfers over 50 connections: `senders` gives each connection its member (headers and body). */
    const transfers = (senders: Pick<LoadSpec, 'lanes' | 'headers' | 'body'>, duration: number) =>
      autocannon({ urls: transfer, method: 'POST', connections: 50, seconds: duration, ...senders });
    const quiet = Math.max(5, Math.round(seconds / 2));
    for (let round = 1; round <= rounds; round++) {
      if (rounds > 1) console.log(`round ${round} of ${rounds}`);
      if (wants('market')) {
        const f = await autocannon({ ...market, connections: 50, seconds });
        show('public market list, 50 connections', f);
        summary.push(['public market list, 50 connections', `${f.rps} req/s, p99 ${f.p99} ms`]);
        await showMemory(instances, 'after the market list');
      }
      if (wants('transfer')) {
        const f = await transfers(
          { lanes: pairs.map((p) => ({ headers: p.headers, body: p.body })) },
          seconds,
        );
        show('authenticated transfer, 50 connections (disjoint pairs)', f);
        peak = f.rps;
        summary.push([
          'peak transfers/s, 50 connections, disjoint pairs (closed loop)',
          `${f.rps}/s, p50 ${f.p50} ms, p99 ${f.p99} ms` +
            (pgbenchTps ? ` = ${Math.round((100 * f.rps) / pgbenchTps)}% of pgbench TPC-B` : ''),
        ]);
        await showMemory(instances, 'after the transfers');
      }
      if (wants('hot')) {
        const f = await transfers(
          { headers: ann.headers, body: JSON.stringify({ account: 'bob', amount: '1' }) },
          quiet,
        );
        show('authenticated transfer, 50 conn., one sender (hot rows)', f);
        summary.push([
          'one sender to one recipient, 50 connections (closed loop)',
          `${f.rps}/s, p50 ${f.p50} ms, p99 ${f.p99} ms` +
            (peak ? ` = ${Math.round((100 * f.rps) / peak)}% of the disjoint figure` : ''),
        ]);
        await showMemory(instances, 'after the hot rows');
      }
      if (wants('open')) {
        // Open loop: a constant arrival rate over both instances, the disjoint pairs, each rate for `quiet` s.
        for (const rate of openRates) {
          const f = await openLoop({
            urls: transfer,
            rate,
            seconds: quiet,
            lanes: pairs.map((p) => ({ headers: p.headers, body: p.body })),
          });
          showOpen(`open loop, offered ${rate} transfers/s (disjoint pairs)`, f);
          summary.push([`offered ${rate}/s, disjoint pairs`, openCell(f)]);
          tailRow(
            summary,
            `  its slowest 1% of transfers`,
            await showMemory(instances, `after offered ${rate}/s`),
          );
        }
      }
      if (wants('hotopen')) {
        // One sender (ann) paying the 50 recipients in turn, at 250/s: the payout account's row is hot.
        const f = await openLoop({
          urls: transfer,
          rate: hotRate,
          seconds: quiet,
          lanes: pairs.map((p) => ({
            headers: ann.headers,
            body: JSON.stringify({ account: p.recipient, amount: '1' }),
          })),
        });
        showOpen(`open loop, offered ${hotRate}/s, one sender to 50 recipients`, f);
        summary.push([`offered ${hotRate}/s, one sender to 50 recipients`, openCell(f)]);
        tailRow(
          summary,
          `  its slowest 1% of transfers`,
          await showMemory(instances, 'after the hot open-loop run'),
        );
      }
      if (wants('read'))
        show(
          'anonymous read, 10 connections, alone',
          await autocannon({ ...market, connections: 10, seconds: quiet }),
        );
      if (wants('logins')) {
        // Two loads at once: no CPU account per request (run1, not measured).
        const [busy, logins] = await Promise.all([
          run1({ ...market, connections: 10, seconds: quiet }),
          run1({
            urls: urls.map((u) => `${u}/api/index/login`),
            method: 'POST',
            body: JSON.stringify({ username: 'nobody-here', password: 'wrong-password' }),
            connections: 8,
            seconds: quiet,
          }),
        ]);
        show('anonymous read p99 while 8 wrong logins run', { ...busy, cpu: null });
        show('  the wrong logins themselves', { ...logins, cpu: null });
      }
      await showMemory(instances, rounds > 1 ? `after round ${round}` : 'after the runs');
    }
    if (instances.length > 0) {
      // At the end, after the instances sat idle for a while (timers, sweeps and the GC had their turn).
      const idle = Number(process.env['BENCH_IDLE_SECONDS'] ?? 60);
      await new Promise((resolve) => setTimeout(resolve, idle * 1000));
      const rss = (await showMemory(instances, `at the end (${idle} s idle)`)).map((m) => mb(m.rss));
      summary.push([`RSS per instance after the runs and ${idle} s idle`, rss.join(', ')]);
    }

    if (url) {
      // The ledger after the runs: every balance row sums to zero per asset (money conserved: the outside
      // world's accounts mirror what came in), and no member balance is negative.
      const driver = await postgresDriver(url, { poolSize: 1 });
      try {
        const { rows } = await driver.query<{ total: string; negative: string; transfers: string }>(
          `SELECT (SELECT coalesce(sum(amount), 0)::text FROM ${schema}.ledger_balances) AS total, ` +
            `(SELECT count(*)::text FROM ${schema}.ledger_balances WHERE amount < 0 AND account LIKE 'user:%') AS negative, ` +
            `(SELECT count(*)::text FROM ${schema}.transfers) AS transfers`,
        );
        const r = rows[0];
        console.log(
          `ledger after the runs: ${r?.transfers} transfers, balances sum to ${r?.total} micro-USDT, ` +
            `${r?.negative} negative member balances`,
        );
        summary.push([
          'ledger after the runs',
          `${r?.transfers} transfers, sum ${r?.total}, ${r?.negative} negative member balances`,
        ]);
      } finally {
        await driver.close();
      }
      console.log(
        `\nsummary (load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} at the end)`,
      );
      console.log('| run | figure |\n|---|---|');
      for (const [what, figure] of summary) console.log(`| ${what} | ${figure} |`);
    } else {
      const got = await seeder.call('/api/user/getuser', undefined, ann);
      const balance = got.data?.balance;
      console.log(`ann's balance after the run: ${balance ?? `(getuser answered ${got.code})`} USDT`);
    }
  } finally {
    meter = null;
    await closeWatch?.();
    for (const inst of instances) await stopInstance(inst);
    await closeSeeder?.();
    if (onSql) await dropSchema(schema);
  }
}

function showOpen(label: string, f: Figures & { open: OpenLoopResult }): void {
  show(label, f);
  const o = f.open;
  const refused = Object.entries(o.refused)
    .map(([code, n]) => `${n} x code ${code}`)
    .join(', ');
  console.log(
    `${''.padEnd(52)} sent ${o.sent}, answered ${o.completed} (${o.ok} ok${refused ? `, ${refused}` : ''}), ` +
      `errors ${o.errors}; p90 ${o.p90} ms, max ${o.max} ms`,
  );
  console.log(
    `${''.padEnd(52)} load generator: sent late by p99 ${o.lateP99} ms (max ${o.lateMax} ms), ` +
      `its event loop delay p99 ${o.loopP99} ms (max ${o.loopMax} ms)`,
  );
}

function openCell(f: Figures & { open: OpenLoopResult }): string {
  const o = f.open;
  const bad = o.completed - o.ok + o.errors;
  return `${o.rps}/s answered, p50 ${o.p50} ms, p99 ${o.p99} ms${bad ? `, ${bad} not ok` : ''} (load ${f.load})`;
}
