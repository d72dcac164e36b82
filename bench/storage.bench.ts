/**
 * SQL storage at scale (issue 11; docs/SERVER.md "Storage"). Needs PostgreSQL: `DATABASE_URL=... npm run
 * bench -- storage` (skipped without it).
 *
 * 1. Seeds a fresh schema BY SQL with 100,000 members, their balances and 1,000,000 balanced ledger entries
 *    (10 deposits of 100 USDT per member), so the data is what the engine would have written.
 * 2. Starts a server instance on it in a child process (bench/storage-instance.ts, compiled and started
 *    as `npm run server:start` starts the server: bench/server/compile.ts; BENCH_TSX=1 runs it under tsx):
 *    start-up time (process start to listening) and RSS. Goals: <= 2 s, <= 200 MB; neither may grow with
 *    the data.
 * 3. Transfers per second through the engine (`handle`: routing, session, ledger, one SERIALIZABLE
 *    transaction each) on that database, with 1, 16 and 50 units in flight: disjoint sender/recipient pairs,
 *    and all from ONE sender (every unit conflicts on one balance row: the retry path).
 * The schema is dropped at the end (BENCH_KEEP=1 keeps it).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { fund, harness, signUp, type Harness } from '../tests/engine/harness';
import { postgresDriver } from '../server/sql-driver';
import { SqlStore } from '../server/sql-store';
import { instanceCommand, underTsx } from './server/compile';

export const name = 'storage: SQL start-up and RSS at 1,000,000 ledger entries; concurrent transfers';

const MEMBERS = Number(process.env['BENCH_MEMBERS'] ?? 100_000);
const ENTRIES_PER_MEMBER = 10;
const here = dirname(fileURLToPath(import.meta.url));

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function seed(store: SqlStore): Promise<void> {
  const s = store.schema;
  const q = (text: string) => store.driver.query(text);
  const first = 100_001;
  const last = 100_000 + MEMBERS;
  let t = performance.now();
  await q(`INSERT INTO ${s}.members (id, ix, v)
    SELECT i::text, ARRAY['username=u' || i, 'invite=I' || i],
      jsonb_build_object('id', i::text, 'username', 'u' || i, 'usernameKey', 'u' || i, 'email', null,
        'emailKey', null, 'phone', null, 'phoneKey', null, 'passwordHash', 'x', 'keyHash', 'x', 'question', 'q',
        'answerHash', 'x', 'vip', 0, 'vipExpiresAt', null, 'inviteCode', 'I' || i, 'invitedBy', null,
        'createdAt', 1767225600000, 'creditScore', 100, 'realNameStatus', 'none', 'status', 'active',
        'keyFails', 0, 'keyLockedUntil', null, 'withdrawHoldUntil', null)
    FROM generate_series(${first}, ${last}) AS i`);
  await q(`INSERT INTO ${s}.ledger_balances (id, ix, v)
    SELECT 'user:' || i || ':cash|USDT', ARRAY['owner=' || i],
      jsonb_build_object('id', 'user:' || i || ':cash|USDT', 'account', 'user:' || i || ':cash', 'asset', 'USDT',
        'amount', '${ENTRIES_PER_MEMBER * 100_000_000}', 'owner', i::text)
    FROM generate_series(${first}, ${last}) AS i`);
  await q(`INSERT INTO ${s}.ledger_balances (id, ix, v) VALUES ('world:TRC20|USDT', '{}',
    jsonb_build_object('id', 'world:TRC20|USDT', 'account', 'world:TRC20', 'asset', 'USDT',
      'amount', '-${BigInt(MEMBERS * ENTRIES_PER_MEMBER) * 100_000_000n}', 'owner', null))`);
  console.log(
    `seeded ${MEMBERS.toLocaleString('en')} members and balances in ${(performance.now() - t).toFixed(0)} ms`,
  );
  t = performance.now();
  // The GIN index is built once after the bulk insert (much faster than row by row).
  await q(`DROP INDEX ${s}.ledger_entries_ix`);
  const total = MEMBERS * ENTRIES_PER_MEMBER;
  for (let from = 1; from <= total; from += 200_000) {
    const to = Math.min(total, from + 199_999);
    await q(`INSERT INTO ${s}.ledger_entries (id, ix, v)
      SELECT e::text, ARRAY['ref=bench:' || e, 'member=' || m],
        jsonb_build_object('id', e::text, 'at', 1767225600000 + e, 'kind', 'deposit', 'ref', 'bench:' || e,
          'members', jsonb_build_array(m::text),
          'legs', jsonb_build_array(
            jsonb_build_object('account', 'user:' || m || ':cash', 'asset', 'USDT', 'amount', '100000000'),
            jsonb_build_object('account', 'world:TRC20', 'asset', 'USDT', 'amount', '-100000000')))
      FROM generate_series(${from}, ${to}) AS e, LATERAL (SELECT ${first} + (e - 1) % ${MEMBERS} AS m) AS mm`);
  }
  await q(`CREATE INDEX ledger_entries_ix ON ${s}.ledger_entries USING gin (ix) WITH (fastupdate = off)`);
  // What the engine records once per database: its sync backfill already ran (engine/sync/capture.ts).
  await q(
    `INSERT INTO ${s}.id_counters (id, v) VALUES ('sync.backfilled', '{"id":"sync.backfilled","value":1}') ON CONFLICT (id) DO NOTHING`,
  );
  await q(`SELECT setval('${s}.id_seq_journal', ${total})`);
  await q(`SELECT setval('${s}.id_seq_member', ${last})`);
  await q(`ANALYZE`);
  console.log(
    `seeded ${total.toLocaleString('en')} ledger entries in ${(performance.now() - t).toFixed(0)} ms`,
  );
}

async function instance(command: string[], url: string, schema: string, label: string): Promise<void> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, command, {
      env: { ...process.env, DATABASE_URL: url, DB_SCHEMA: schema, PBKDF2_ITERATIONS: '1000', DEMO: 'true' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`instance exited ${code}`))));
  });
  const line = out.trim().split('\n').at(-1) ?? '{}';
  const r = JSON.parse(line) as {
    startupMs: number;
    openMs: number;
    rssStarted: number;
    rssServing: number;
    answered: number;
  };
  console.log(
    `server instance (${label}): start-up ${r.startupMs.toFixed(0)} ms from process start (goal <= 2000; ` +
      `${r.openMs.toFixed(0)} ms in startServer, the rest loading modules), RSS ${mb(r.rssStarted)} started, ` +
      `${mb(r.rssServing)} after a request (goal <= 200 MB), answer status ${r.answered}`,
  );
}

async function transfers(h: Harness, store: SqlStore): Promise<void> {
  const pairs = 50;
  const senders: Array<Awaited<ReturnType<typeof signUp>>> = [];
  const recipients: Array<Awaited<ReturnType<typeof signUp>>> = [];
  for (let i = 0; i < pairs; i++) {
    const from = await signUp(h, `bs${i}`);
    const to = await signUp(h, `br${i}`);
    await fund(h, from.id, '1000000');
    await fund(h, to.id, '300000');
    const vip = await h.call('/api/Viplist/Buyvip', { level: 6, key: 'key1' }, to);
    if (vip.code !== 0) throw new Error(`setup: ${vip.code} ${vip.msg}`);
    senders.push(from);
    recipients.push(to);
  }
  const run = async (label: string, inFlight: number, count: number, hot: boolean) => {
    const retriesBefore = store.retries;
    const samples: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async (_, w) => {
        while (next < count) {
          next++;
          const from = senders[hot ? 0 : w] ?? senders[0];
          const to = `br${hot ? next % pairs : w}`;
          const t = performance.now();
          const r = await h.call('/api/transfer/submit', { account: to, amount: '1' }, from);
          samples.push(performance.now() - t);
          if (r.code !== 0) throw new Error(`transfer: ${r.code} ${r.msg}`);
        }
      }),
    );
    const wall = performance.now() - started;
    samples.sort((a, b) => a - b);
    console.log(
      `${label.padEnd(44)} ${String(samples.length).padStart(5)} ops ${((samples.length / wall) * 1000).toFixed(0).padStart(6)}/s ` +
        `p50 ${percentile(samples, 50).toFixed(1)} ms  p99 ${percentile(samples, 99).toFixed(1)} ms  ` +
        `retries ${store.retries - retriesBefore}`,
    );
  };
  if (!process.env['BENCH_HOT_ONLY']) {
    await run('transfers, 1 in flight', 1, 300, false);
    await run('transfers, 16 in flight, disjoint pairs', 16, 2_000, false);
    await run('transfers, 50 in flight, disjoint pairs', 50, 3_000, false);
  }
  await run('transfers, 16 in flight, one sender (contended)', 16, 500, true);
}

export async function run(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) {
    console.log('DATABASE_URL is not set: this bench needs PostgreSQL (skipped)');
    return;
  }
  const schema = `bench_storage_${process.pid}`;
  const driver = await postgresDriver(url, { poolSize: 50 });
  const store = await SqlStore.open(driver, { schema });
  try {
    // The same start-up on the empty schema first: start-up must not grow with the data.
    // The compiled instance with the production start's flags (BENCH_TSX=1: under tsx).
    const command = await instanceCommand(join(here, 'storage-instance.ts'));
    const start = underTsx() ? 'tsx' : `compiled, node ${command.join(' ')}`;
    await instance(command, url, schema, `empty database, ${start}`);
    await seed(store);
    await instance(
      command,
      url,
      schema,
      `${(MEMBERS * ENTRIES_PER_MEMBER).toLocaleString('en')} ledger entries`,
    );
    if (process.env['BENCH_STARTUP_ONLY']) {
      await store.close();
      return;
    }
    const h = await harness({ storage: store, config: { demo: true, captchaLimit: 1_000_000 } });
    await transfers(h, store);
    // L1 over the whole ledger, by SQL (the engine's own check would read 1,000,000 entries into memory).
    const { rows } = await store.driver.query<{ asset: string; sum: string }>(
      `SELECT asset, sum(amount)::text AS sum FROM ${schema}.ledger_balances GROUP BY asset`,
    );
    console.log(
      `sum of all balances per asset after the run: ${rows.map((r) => `${r.asset} ${r.sum}`).join(', ')}`,
    );
    await h.engine.close();
  } finally {
    if (!process.env['BENCH_KEEP']) {
      const cleanup = await postgresDriver(url);
      await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await cleanup.close();
    }
  }
}
