/**
 * The backup and restore drill (`npm run backup:drill`): dumps the schema at one exported snapshot
 * (`pg_dump --snapshot`), restores it into a fresh `strata_drill_<random>` database, and checks the copy (row
 * counts, migrations, the ledger's rules L1-L6, the audit log by a SHA-256 chain over its rows in id order,
 * h(i) = sha256(h(i-1) + row i), and its append-only triggers); then drops the scratch database. Needs
 * pg_dump/pg_restore of the server's major version or newer and a role that may create databases. Steps,
 * output and figures: docs/OPERATIONS.md "Runbook: backup and restore".
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { checkInvariants } from '../engine/server';
import { checkSchemaName, postgresDriver } from './sql-driver';
import { MIGRATIONS } from './sql-schema';
import { SqlStore } from './sql-store';

const run = promisify(execFile);

export interface DrillOptions {
  /** The database to back up (DATABASE_URL). */
  databaseUrl: string;
  /** The schema holding the tables (DB_SCHEMA, default strata). */
  schema: string;
  /** Keep the backup here; a temporary file, removed after the drill, when absent. */
  backupFile?: string;
  /** Leave the restored database in place (its name is in the report). */
  keepDatabase?: boolean;
  /** Told each step as it finishes. */
  log?: (line: string) => void;
}

export interface DrillReport {
  ok: boolean;
  problems: string[];
  backupFile: string | null;
  backupBytes: number;
  restoredDatabase: string;
  tables: number;
  rows: number;
  auditRows: number;
  /** The audit log's SHA-256 chain head at the snapshot (hex). */
  auditChain: string;
  seconds: { backup: number; restore: number; checks: number };
}

interface Snapshot {
  counts: Map<string, number>;
  audit: { rows: number; chain: string };
}

/** Row counts of every table of `schema`, and the audit log's chain, on `client` (inside its snapshot). */
async function readSnapshot(client: pg.Client, schema: string): Promise<Snapshot> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
    [schema],
  );
  const counts = new Map<string, number>();
  for (const { name } of tables) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${schema}.${pg.escapeIdentifier(name)}`,
    );
    counts.set(name, Number(rows[0]?.n ?? 0));
  }
  const audit = counts.has('audit_log') ? await auditChain(client, schema) : { rows: 0, chain: '' };
  return { counts, audit };
}

/** SHA-256 chain over the audit log's rows in id order, read 5,000 rows at a time. */
async function auditChain(client: pg.Client, schema: string): Promise<{ rows: number; chain: string }> {
  let head = createHash('sha256').digest('hex');
  let last = '0';
  let rows = 0;
  for (;;) {
    const page = await client.query<{ id: string; row: string }>(
      `SELECT id::text AS id, row_to_json(a)::text AS row FROM ${schema}.audit_log a
        WHERE id > $1::bigint ORDER BY id LIMIT 5000`,
      [last],
    );
    for (const r of page.rows) head = createHash('sha256').update(head).update(r.row).digest('hex');
    rows += page.rows.length;
    const end = page.rows.at(-1);
    if (!end) return { rows, chain: head };
    last = end.id;
  }
}

function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function backupDrill(options: DrillOptions): Promise<DrillReport> {
  const schema = checkSchemaName(options.schema);
  const log = options.log ?? (() => undefined);
  const problems: string[] = [];
  const tempDir = options.backupFile ? null : mkdtempSync(join(tmpdir(), 'strata-backup-'));
  const backupFile = options.backupFile ?? join(String(tempDir), `${schema}.dump`);
  const restoredDatabase = `strata_drill_${randomBytes(6).toString('hex')}`;
  const restoredUrl = databaseUrlFor(options.databaseUrl, restoredDatabase);
  const seconds = { backup: 0, restore: 0, checks: 0 };
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const s = Math.round(now - t) / 1000;
    t = now;
    return s;
  };

  // 1. The snapshot, read and dumped.
  const source = new pg.Client({ connectionString: options.databaseUrl });
  await source.connect();
  let snapshot: Snapshot;
  try {
    await source.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await source.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    const id = String(rows[0]?.id);
    const dumped = run('pg_dump', [
      '--format=custom',
      `--schema=${schema}`,
      `--snapshot=${id}`,
      '--no-owner',
      '--no-privileges',
      `--file=${backupFile}`,
      `--dbname=${options.databaseUrl}`,
    ]);
    snapshot = await readSnapshot(source, schema);
    await dumped;
    await source.query('COMMIT');
  } finally {
    await source.end();
  }
  seconds.backup = lap();
  const backupBytes = statSync(backupFile).size;
  log(`backup: ${backupFile} (${backupBytes} bytes, ${snapshot.counts.size} tables) in ${seconds.backup} s`);

  // 2. A fresh database, restored.
  const admin = new pg.Client({ connectionString: options.databaseUrl });
  await admin.connect();
  const copied = { tables: 0, rows: 0 };
  try {
    await admin.query(`CREATE DATABASE ${restoredDatabase}`);
    try {
      await run('pg_restore', ['--exit-on-error', '--no-owner', `--dbname=${restoredUrl}`, backupFile]);
      seconds.restore = lap();
      log(`restore: database ${restoredDatabase} in ${seconds.restore} s`);

      // 3. The checks.
      const restored = new pg.Client({ connectionString: restoredUrl });
      await restored.connect();
      try {
        await restored.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const copy = await readSnapshot(restored, schema);
        for (const [table, n] of snapshot.counts) {
          const m = copy.counts.get(table);
          if (m === undefined) problems.push(`table ${table} is missing from the restored copy`);
          else if (m !== n)
            problems.push(`table ${table}: ${n} rows in the backup's snapshot, ${m} restored`);
          copied.rows += m ?? 0;
        }
        copied.tables = copy.counts.size;
        if (copy.audit.rows !== snapshot.audit.rows || copy.audit.chain !== snapshot.audit.chain)
          problems.push(
            `audit log: ${snapshot.audit.rows} rows (chain ${snapshot.audit.chain.slice(0, 12)}) at the snapshot, ` +
              `${copy.audit.rows} rows (chain ${copy.audit.chain.slice(0, 12)}) restored`,
          );
        if (snapshot.counts.has('audit_log')) {
          const { rows: triggers } = await restored.query<{ name: string }>(
            `SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
               JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = $1 AND c.relname = 'audit_log' AND t.tgenabled <> 'D' AND NOT t.tgisinternal`,
            [schema],
          );
          for (const name of ['audit_log_no_change', 'audit_log_no_truncate'])
            if (!triggers.some((r) => r.name === name))
              problems.push(`audit log: trigger ${name} is missing or disabled: the copy is not append-only`);
        }
        const { rows: ran } = await restored.query<{ name: string }>(
          `SELECT name FROM ${schema}.strata_migrations`,
        );
        const names = new Set(ran.map((r) => r.name));
        const pending = MIGRATIONS.filter((m) => !names.has(m.name)).map((m) => m.name);
        if (pending.length > 0) problems.push(`migrations not in the copy: ${pending.join(', ')}`);
        await restored.query('COMMIT');
      } finally {
        await restored.end();
      }
      // The ledger's rules, as the engine states them, on the restored copy (pending migrations would be run
      // by opening it: checked above first).
      if (problems.length === 0) {
        const store = await SqlStore.open(await postgresDriver(restoredUrl, { poolSize: 2 }), { schema });
        try {
          problems.push(...(await checkInvariants(store)).map((p) => `ledger: ${p}`));
        } finally {
          await store.close();
        }
      }
      seconds.checks = lap();
      log(
        `checks: ${copied.tables} tables, ${copied.rows} rows, audit log ${snapshot.audit.rows} rows, ` +
          `ledger rules L1-L6, in ${seconds.checks} s: ${problems.length === 0 ? 'all pass' : `${problems.length} problems`}`,
      );
    } finally {
      if (!options.keepDatabase)
        await admin.query(`DROP DATABASE IF EXISTS ${restoredDatabase} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
  return {
    ok: problems.length === 0,
    problems,
    backupFile: tempDir ? null : backupFile,
    backupBytes,
    restoredDatabase,
    tables: copied.tables,
    rows: copied.rows,
    auditRows: snapshot.audit.rows,
    auditChain: snapshot.audit.chain,
    seconds,
  };
}
