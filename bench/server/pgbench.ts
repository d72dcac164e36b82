/**
 * pgbench's TPC-B (per transaction: 3 updates and 1 insert, one account debited and its teller and branch
 * credited: one transfer's worth of SQL) on the bench's PostgreSQL, for bench/server.bench.ts to print the
 * server's transfers beside it. Its tables live in a database of their own (`strata_pgbench`, made and
 * filled once at scale BENCH_PGBENCH_SCALE, default 50: 50 branches for 50 clients, as the server's 50
 * disjoint pairs), never in the bench's schema.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { postgresDriver } from '../../server/sql-driver';

const run = promisify(execFile);

export interface TpcbFigures {
  tps: number;
  latencyMs: number;
  clients: number;
  scale: number;
  seconds: number;
}

/** Where pgbench is, or null. */
export async function pgbenchPath(): Promise<string | null> {
  try {
    const { stdout } = await run('sh', ['-c', 'command -v pgbench']);
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

/** TPC-B with `clients` clients for `seconds`, prepared statements; null (with the reason) when it cannot run. */
export async function tpcb(
  databaseUrl: string,
  clients: number,
  seconds: number,
): Promise<TpcbFigures | { missing: string }> {
  const pgbench = await pgbenchPath();
  if (!pgbench) return { missing: 'pgbench is not installed (Debian: postgresql-client)' };
  const scale = Number(process.env['BENCH_PGBENCH_SCALE'] ?? 50);
  const url = new URL(databaseUrl);
  const admin = await postgresDriver(databaseUrl, { poolSize: 1 });
  try {
    const { rows } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'strata_pgbench'`);
    if (rows.length === 0) await admin.query('CREATE DATABASE strata_pgbench');
  } finally {
    await admin.close();
  }
  url.pathname = '/strata_pgbench';
  const target = url.toString();
  const db = await postgresDriver(target, { poolSize: 1 });
  let filled = 0;
  try {
    const { rows } = await db.query<{ t: string | null }>(
      `SELECT to_regclass('pgbench_branches')::text AS t`,
    );
    if (rows[0]?.t) {
      const counted = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM pgbench_branches`);
      filled = Number(counted.rows[0]?.n ?? 0);
    }
  } finally {
    await db.close();
  }
  if (filled !== scale) await run(pgbench, ['-i', '-q', '-I', 'dtGvp', '-s', String(scale), target]);
  const { stdout } = await run(
    pgbench,
    ['-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), target],
    { maxBuffer: 1 << 20 },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1]);
  if (!Number.isFinite(tps)) return { missing: `pgbench printed no tps: ${stdout.slice(-300)}` };
  return { tps, latencyMs, clients, scale, seconds };
}
