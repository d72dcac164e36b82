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
import type { InstanceMemory } from './server/instance';
import type { LoadSpec } from './server/load';
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
  return measured(load);
}

async function measured(load: LoadSpec): Promise<Figures> {
  const pids = meter?.instancePids() ?? [];
  const backendsBefore = (await meter?.backendPids()) ?? [];
  const before = snapshot(pids);
  const ownBefore = process.cpuUsage();
  const figures = await run1(load);
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
async function showMemory(instances: Instance[], when: string): Promise<void> {
  for (const [i, inst] of instances.entries()) {
    const m = await memoryOf(inst);
    console.log(
      `  instance ${i + 1} ${when}: RSS ${mb(m.rss)} (heap ${mb(m.heapUsed)} used of ${mb(m.heapTotal)}, ` +
        `external ${mb(m.external)} with ${mb(m.arrayBuffers)} array buffers; ${m.threads} hash threads, ` +
        `heaps ${mb(m.threadHeapUsed)} used of ${mb(m.threadHeapTotal)})`,
    );
  }
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
    await showMemory(instances, 'after start');

    const read = { urls, method: 'POST' as const, body: '{}' };
    // An envelope that refuses still answers HTTP 200 (autocannon's non-2xx would not see it): checked once.
    for (const u of urls) {
      const answer = await fetch(`${u}/api/market/list`, { method: 'POST', body: '{}' });
      const { code, msg } = (await answer.json()) as { code: number; msg: string };
      if (code !== 0) console.log(`market list on ${u} answers code ${code}: ${msg}`);
    }
    const market = { ...read, urls: urls.map((u) => `${u}/api/market/list`) };
    // BENCH_RUNS=market,transfer,hot,read,logins (default all): the runs to make; BENCH_ROUNDS repeats them.
    const only = process.env['BENCH_RUNS']?.split(',');
    const wants = (run: string) => !only || only.includes(run);
    const transfer = urls.map((u) => `${u}/api/transfer/submit`);
    /** Transfers over 50 connections: `senders` gives each connection its member (headers and body). */
    const transfers = (senders: Pick<LoadSpec, 'lanes' | 'headers' | 'body'>, duration: number) =>
      autocannon({ urls: transfer, method: 'POST', connections: 50, seconds: duration, ...senders });
    const quiet = Math.max(5, Math.round(seconds / 2));
    for (let round = 1; round <= rounds; round++) {
      if (rounds > 1) console.log(`round ${round} of ${rounds}`);
      if (wants('market')) {
        show('public market list, 50 connections', await autocannon({ ...market, connections: 50, seconds }));
        await showMemory(instances, 'after the market list');
      }
      if (wants('transfer')) {
        show(
          'authenticated transfer, 50 connections (disjoint pairs)',
          await transfers({ lanes: pairs.map((p) => ({ headers: p.headers, body: p.body })) }, seconds),
        );
        await showMemory(instances, 'after the transfers');
      }
      if (wants('hot')) {
        show(
          'authenticated transfer, 50 conn., one sender (hot rows)',
          await transfers(
            { headers: ann.headers, body: JSON.stringify({ account: 'bob', amount: '1' }) },
            quiet,
          ),
        );
        await showMemory(instances, 'after the hot rows');
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
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      await showMemory(instances, 'at the end (10 s idle)');
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
      } finally {
        await driver.close();
      }
    } else {
      const got = await seeder.call('/api/user/getuser', {}, ann);
      const balance = (got.data as { balance?: string } | null)?.balance;
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
