/**
 * The live server over real HTTP (issue 11 bench): autocannon in a separate process against one server
 * instance in this process, on PostgreSQL when DATABASE_URL is set (a fresh schema, dropped afterwards),
 * on an in-memory PGlite with BENCH_STORAGE=pglite, else in memory. Prints requests/s, p50 and p99 for:
 *
 * - the public market list (POST /api/market/list: the engine's method; a GET answers a 404 envelope),
 *   50 connections;
 * - an authenticated transfer (POST /api/transfer/submit, 1 USDT each), 50 connections;
 * - an anonymous read (10 connections) alone, then while 8 connections send wrong passwords (PBKDF2 at
 *   the production 600,000 iterations, on the server's worker-thread hash pool), to show what hashing does
 *   to everyone else: "anonymous read p99 while 8 wrong logins run".
 *
 * `npm run bench -- server`; BENCH_SECONDS (default 20) sets the duration of the first two runs.
 */
import { spawn } from 'node:child_process';
import { resolveConfig } from '../engine/config';
import { SqlStore } from '../server/sql-store';
import { deposit, signUp, startTestServer, type Session } from '../tests/engine/server/serve';
import { dropSchema, freshSchema, testDriver } from '../tests/engine/server/sql';

export const name = 'Live server over HTTP (autocannon)';

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface Load {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

function autocannon(load: Load): Promise<Figures> {
  const args = ['-j', '-c', String(load.connections), '-d', String(load.seconds), '-m', load.method ?? 'GET'];
  for (const [k, v] of Object.entries({ 'content-type': 'application/json', ...load.headers }))
    args.push('-H', `${k}=${v}`);
  if (load.body !== undefined) args.push('-b', load.body);
  args.push(load.url);
  return new Promise((resolve, reject) => {
    const child = spawn('node_modules/.bin/autocannon', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        const r = JSON.parse(out) as {
          requests: { average: number };
          latency: { p50: number; p99: number };
          non2xx: number;
          errors: number;
        };
        resolve({
          rps: Math.round(r.requests.average),
          p50: r.latency.p50,
          p99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors,
        });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function show(label: string, f: Figures): void {
  console.log(
    `${label.padEnd(44)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms` +
      (f.errors || f.non2xx ? `  (errors ${f.errors}, non-2xx ${f.non2xx})` : ''),
  );
}

export async function run(): Promise<void> {
  const seconds = Number(process.env['BENCH_SECONDS'] ?? 20);
  const schema = freshSchema();
  const onPostgres = Boolean(process.env['DATABASE_URL']);
  const onSql = onPostgres || process.env['BENCH_STORAGE'] === 'pglite';
  const storage = onSql ? await SqlStore.open(await testDriver(), { schema }) : 'memory';
  // Transfers are the measured work: the receive limits of VIP1 are lifted, the login limits too (the
  // wrong-password run measures hashing, not the limiter).
  const vipLevels = resolveConfig().vipLevels.map((v) =>
    v.level === 1 ? { ...v, dailyReceive: 10n ** 18n, monthlyReceive: 10n ** 18n } : v,
  );
  const server = await startTestServer({
    storage,
    config: {
      pbkdf2Iterations: undefined,
      loginPerIpPerMinute: 1_000_000,
      loginGlobalPerMinute: 1_000_000,
    },
    engineConfig: { vipLevels, loginFailLimit: 1_000_000_000 },
  });
  try {
    const ann: Session = await signUp(server, 'ann');
    const bob = await signUp(server, 'bob');
    await deposit(server, ann, '1000000', 1);
    await deposit(server, bob, '100', 2);
    const vip = await server.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob);
    if (vip.code !== 0) throw new Error(`Buyvip: ${vip.code} ${vip.msg}`);
    const probe = await server.call('/api/transfer/submit', { account: 'bob', amount: '1' }, ann);
    if (probe.code !== 0) throw new Error(`transfer: ${probe.code} ${probe.msg}`);
    const kind = onPostgres ? 'PostgreSQL' : onSql ? 'PGlite' : 'memory';
    console.log(
      `storage: ${kind}, one instance, ${seconds} s per run, hash pool of ${server.hashes.threads} threads`,
    );

    const read = { url: `${server.url}/api/market/list`, method: 'POST' as const, body: '{}' };
    show('public market list, 50 connections', await autocannon({ ...read, connections: 50, seconds }));
    show(
      'authenticated transfer, 50 connections',
      await autocannon({
        url: `${server.url}/api/transfer/submit`,
        method: 'POST',
        headers: ann.headers,
        body: JSON.stringify({ account: 'bob', amount: '1' }),
        connections: 50,
        seconds,
      }),
    );
    const quiet = Math.max(5, Math.round(seconds / 2));
    show(
      'anonymous read, 10 connections, alone',
      await autocannon({ ...read, connections: 10, seconds: quiet }),
    );
    const [busy, logins] = await Promise.all([
      autocannon({ ...read, connections: 10, seconds: quiet }),
      autocannon({
        url: `${server.url}/api/index/login`,
        method: 'POST',
        body: JSON.stringify({ username: 'ann', password: 'wrong-password' }),
        connections: 8,
        seconds: quiet,
      }),
    ]);
    show('anonymous read p99 while 8 wrong logins run', busy);
    show('  the wrong logins themselves', logins);
    const got = await server.call('/api/user/getuser', {}, ann);
    const balance = (got.data as { balance?: string } | null)?.balance;
    console.log(
      `ann's balance after the run: ${balance ?? `(getuser answered ${got.code} ${got.msg})`} USDT`,
    );
  } finally {
    await server.close();
    if (onSql) await dropSchema(schema);
  }
}
