/**
 * Where an authenticated transfer's time goes on PostgreSQL (issue 11): one server instance on a fresh
 * schema (DATABASE_URL required), its SQL driver wrapped to record every statement a call sends, then
 *
 * - N transfers one at a time over HTTP: the statements of each (round trips), by phase, with their time;
 * - the same at 50 in flight: wall time split into waiting for a pool connection, SQL and the rest.
 *
 * `DATABASE_URL=... npm run bench -- transfer-profile` (PROFILE_TRANSFERS, default 300; PROFILE_RUNS=single,disjoint,hot
 * picks the runs, default all).
 */
import { request as httpRequest, Agent } from 'node:http';
import { resolveConfig } from '../engine/config';
import { postgresDriver, type SqlConnection, type SqlDriver } from '../server/sql-driver';
import { SqlStore } from '../server/sql-store';
import { deposit, signUp, startTestServer } from '../tests/engine/server/serve';
import { seedPairs } from './server/seed';
import { postgresProcesses, usedBy } from './server/cpu';

/** application_name of this profile's pool: how its PostgreSQL backends are found for the CPU account. */
const APP_NAME = 'strata-transfer-profile';
import { dropSchema, freshSchema } from '../tests/engine/server/sql';

export const name = 'Authenticated transfer profile on PostgreSQL';

interface Sample {
  phase: string;
  ms: number;
}

const recorder = {
  on: false,
  samples: [] as Sample[],
  connectWaitMs: 0,
  connects: 0,
  /** Statements issued while none was in flight on their connection: the unit's sequential round trips. */
  roundTrips: 0,
};

/** The phase a statement belongs to, from its text and first parameter. */
function phaseOf(text: string, params: unknown[] | undefined): string {
  const t = text.trim();
  if (/^(BEGIN|COMMIT|ROLLBACK)/i.test(t)) return t.split(' ')[0]?.toUpperCase() ?? t;
  if (/pg_advisory/i.test(t)) return 'advisory lock';
  if (/pg_notify/i.test(t)) return 'events (NOTIFY)';
  if (/^WITH|^INSERT|^DELETE/i.test(t)) return 'ledger/row writes (one statement)';
  if (/UNION ALL/.test(t)) {
    const tables = [...t.matchAll(/FROM \w+\.(\w+)/gi)].map((m) => m[1]);
    const ids = [...t.matchAll(/nextval\('\w+\.(\w+)'\)/gi)].map((m) => `${m[1]}`);
    const what = [...tables, ...ids].join(' + ');
    return tables.includes('sessions')
      ? `session lookup (${what}, one statement)`
      : `read ${what} (one statement)`;
  }
  if (/nextval/i.test(t)) return 'id sequence';
  const table = /FROM [\w]+\.(\w+)/i.exec(t)?.[1] ?? '?';
  const first = typeof params?.[0] === 'string' ? params[0] : '';
  if (table === 'sessions') return 'session lookup (sessions)';
  if (table === 'members' && /ix @>/.test(t)) return 'recipient lookup (members by username)';
  if (table === 'members') return 'session lookup (member row)';
  if (table === 'strata_rows' || table === 'counters') return `counters (${first.split(':')[0] ?? ''})`;
  return `read ${table}${/ix @>/.test(t) ? ' (index)' : ''}`;
}

function recordingConnection(c: SqlConnection): SqlConnection {
  let inFlight = 0;
  return {
    query: async <T>(text: string, params?: unknown[], prepared?: boolean) => {
      const started = performance.now();
      if (recorder.on && inFlight === 0) recorder.roundTrips++;
      inFlight++;
      try {
        return await c.query<T>(text, params, prepared);
      } finally {
        inFlight--;
        if (recorder.on)
          recorder.samples.push({ phase: phaseOf(text, params), ms: performance.now() - started });
      }
    },
  };
}

function recordingDriver(d: SqlDriver): SqlDriver {
  return {
    kind: d.kind,
    query: recordingConnection(d).query,
    connect: async () => {
      const started = performance.now();
      const c = await d.connect();
      if (recorder.on) {
        recorder.connectWaitMs += performance.now() - started;
        recorder.connects++;
      }
      return { ...recordingConnection(c), release: (broken?: boolean) => c.release(broken) };
    },
    close: () => d.close(),
  };
}

function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ ms: number; code: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const code = (JSON.parse(text) as { code: number }).code;
          resolve({ ms: performance.now() - started, code });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

function report(
  label: string,
  n: number,
  wallMs: number,
  latencies: number[],
  cpu: { node: number; pg: number },
): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  const byPhase = new Map<string, { count: number; ms: number }>();
  for (const s of recorder.samples) {
    const e = byPhase.get(s.phase) ?? { count: 0, ms: 0 };
    e.count++;
    e.ms += s.ms;
    byPhase.set(s.phase, e);
  }
  const statements = recorder.samples.length;
  const sqlMs = recorder.samples.reduce((sum, s) => sum + s.ms, 0);
  console.log(
    `\n${label}: ${n} transfers in ${(wallMs / 1000).toFixed(2)} s = ${Math.round((n * 1000) / wallMs)}/s, ` +
      `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
  );
  console.log(
    `  per transfer: ${(statements / n).toFixed(2)} SQL statements in ${(recorder.roundTrips / n).toFixed(2)} ` +
      `round trips, ${(sqlMs / n).toFixed(2)} ms in SQL (pipelined statements overlap), ` +
      `${(recorder.connectWaitMs / n).toFixed(2)} ms waiting for a pool connection ` +
      `(${(recorder.connects / n).toFixed(2)} checkouts)`,
  );
  console.log(
    `  CPU per transfer: this process (server and its HTTP client) ${(cpu.node / n).toFixed(3)} ms, ` +
      `PostgreSQL backends ${(cpu.pg / n).toFixed(3)} ms`,
  );
  const rows = [...byPhase].sort((a, b) => b[1].ms - a[1].ms);
  for (const [phase, e] of rows)
    console.log(
      `  ${phase.padEnd(42)} ${(e.count / n).toFixed(2).padStart(5)} /transfer ` +
        `${(e.ms / e.count).toFixed(3).padStart(7)} ms each ${(e.ms / n).toFixed(2).padStart(6)} ms/transfer`,
    );
}

export async function run(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) {
    console.log('DATABASE_URL is not set: this profile runs on PostgreSQL only');
    return;
  }
  const n = Number(process.env['PROFILE_TRANSFERS'] ?? 300);
  const schema = freshSchema();
  process.env['PGAPPNAME'] = APP_NAME;
  const driver = recordingDriver(
    await postgresDriver(url, { poolSize: Number(process.env['PG_POOL_MAX'] ?? 10) }),
  );
  const storage = await SqlStore.open(driver, { schema });
  const vipLevels = resolveConfig().vipLevels.map((v) =>
    v.level === 1 ? { ...v, dailyReceive: 10n ** 18n, monthlyReceive: 10n ** 18n } : v,
  );
  const server = await startTestServer({
    storage,
    config: {
      databaseUrl: url,
      loginPerIpPerMinute: 1_000_000,
      loginGlobalPerMinute: 1_000_000,
      captchaPerIpPerMinute: 1_000_000,
    },
    engineConfig: { vipLevels },
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  try {
    const ann = await signUp(server, 'ann');
    const bob = await signUp(server, 'bob');
    await deposit(server, ann, '1000000', 1);
    await deposit(server, bob, '100', 2);
    const vip = await server.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob);
    if (vip.code !== 0) throw new Error(`Buyvip: ${vip.code} ${vip.msg}`);
    // Disjoint pairs: sender i pays recipient i (VIP 1), so concurrent transfers share no row.
    const pairs = await seedPairs(server, 50);
    const target = `${server.url}/api/transfer/submit`;
    const body = JSON.stringify({ account: 'bob', amount: '1' });
    for (let i = 0; i < 20; i++) await post(agent, target, ann.headers, body); // warm-up

    const measure = async (label: string, inFlight: number, disjoint = false) => {
      recorder.samples = [];
      recorder.connectWaitMs = 0;
      recorder.connects = 0;
      recorder.roundTrips = 0;
      const backends = async () =>
        (
          await driver.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE application_name = $1`,
            [APP_NAME],
          )
        ).rows.map((r) => r.pid);
      const pidsBefore = await backends();
      const pgBefore = { ms: postgresProcesses() };
      const nodeBefore = process.cpuUsage();
      recorder.on = true;
      const latencies: number[] = [];
      let next = 0;
      let failed = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async (_, lane) => {
          const pair = pairs[lane % pairs.length];
          while (next < n) {
            next++;
            const r =
              disjoint && pair
                ? await post(agent, target, pair.headers, pair.body)
                : await post(agent, target, ann.headers, body);
            if (r.code !== 0) failed++;
            latencies.push(r.ms);
          }
        }),
      );
      const wall = performance.now() - started;
      recorder.on = false;
      const nodeUsed = process.cpuUsage(nodeBefore);
      const pgAfter = { ms: postgresProcesses() };
      const pids = new Set([...pidsBefore, ...(await backends())]);
      report(label, n, wall, latencies, {
        node: (nodeUsed.user + nodeUsed.system) / 1000,
        pg: usedBy(pgBefore, pgAfter, pids),
      });
      if (failed) console.log(`  (${failed} answered a non-zero code)`);
    };
    // PROFILE_RUNS=single,disjoint,hot (default all): the runs to make.
    const only = process.env['PROFILE_RUNS']?.split(',');
    const wants = (run: string) => !only || only.includes(run);
    if (wants('single')) await measure('1 in flight', 1);
    if (wants('disjoint')) await measure('50 in flight, 50 disjoint sender/recipient pairs', 50, true);
    if (wants('hot')) await measure('50 in flight, all from one sender to one recipient (hot rows)', 50);
    console.log(`  store retries so far: ${storage.retries}`);
  } finally {
    agent.destroy();
    await server.close();
    await dropSchema(schema);
  }
}
