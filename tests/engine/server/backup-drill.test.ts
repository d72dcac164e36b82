/**
 * The backup and restore drill (issue 30 item 4, server/backup-drill.ts, `npm run backup:drill`) against the
 * machine's PostgreSQL: a schema with members, deposits, transfers and audit rows is dumped at one snapshot,
 * restored into a scratch database (dropped afterwards) and checked; `npm run backup:drill` exits 1 on a
 * copy whose ledger is wrong (a balance that is not the sum of its entries). PostgreSQL only.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { audit, SYSTEM_ACTOR } from '../../../server/admin/db';
import { backupDrill } from '../../../server/backup-drill';
import { SqlStore } from '../../../server/sql-store';
import { deposit, signUp, startTestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const run = promisify(execFile);
const schemas: string[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A schema with a little of everything the drill checks; returns it and its store. */
async function populated(): Promise<{ schema: string; store: SqlStore }> {
  const schema = freshSchema();
  schemas.push(schema);
  const s = await startTestServer({ storage: await SqlStore.open(await testDriver(), { schema }) });
  const ann = await signUp(s, 'ann');
  const bob = await signUp(s, 'bob');
  await deposit(s, ann, '300', 1);
  await deposit(s, bob, '100', 2);
  expect((await s.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob)).code).toBe(0);
  expect((await s.call('/api/transfer/submit', { account: 'bob', amount: '12.5' }, ann)).code).toBe(0);
  const store = await SqlStore.open(await testDriver(), { schema });
  for (let i = 0; i < 3; i++)
    await audit(store.driver, schema, {
      at: Date.now(),
      operator: SYSTEM_ACTOR,
      action: 'withdrawal.reconcile_complete',
      target: `withdrawal:${i}`,
      after: { status: 'completed' },
      ip: '',
    });
  await s.close();
  return { schema, store };
}

describe.runIf(sqlKind === 'postgres')('backup and restore drill (postgres)', () => {
  it('backs up at one snapshot, restores into a fresh database, and finds the ledger and audit log intact', async () => {
    const { schema, store } = await populated();
    const dir = mkdtempSync(join(tmpdir(), 'strata-drill-test-'));
    dirs.push(dir);
    const backupFile = join(dir, 'backup.dump');
    const lines: string[] = [];
    const report = await backupDrill({
      databaseUrl: String(process.env['DATABASE_URL']),
      schema,
      backupFile,
      log: (line) => lines.push(line),
    });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.auditRows).toBe(3);
    expect(report.auditChain).toMatch(/^[0-9a-f]{64}$/);
    expect(report.tables).toBeGreaterThan(20);
    expect(report.rows).toBeGreaterThan(10);
    expect(existsSync(backupFile)).toBe(true);
    expect(lines.map((l) => l.split(':')[0])).toEqual(['backup', 'restore', 'checks']);
    // The scratch database is gone.
    const { rows } = await store.driver.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM pg_database WHERE datname = $1',
      [report.restoredDatabase],
    );
    expect(rows[0]?.n).toBe('0');
    await store.close();
  }, 120_000);

  it('npm run backup:drill fails, exit 1, when the ledger it restores is wrong: a balance that is not the sum of its entries', async () => {
    const { schema, store } = await populated();
    // A balance changed outside any journal entry (as a bad manual fix would do).
    const { rows } = await store.driver.query<{ id: string }>(
      `UPDATE ${schema}.ledger_balances SET v = jsonb_set(v, '{amount}', to_jsonb(((v->>'amount')::numeric + 1000000)::text))
        WHERE id = (SELECT id FROM ${schema}.ledger_balances WHERE v->>'amount' <> '0' ORDER BY id LIMIT 1) RETURNING id`,
    );
    expect(rows).toHaveLength(1);
    await store.close();
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/backup-drill.ts'], {
      env: { ...process.env, DB_SCHEMA: schema },
    }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`FAILED ledger: L2 ${rows[0]?.id}: cached`);
    expect(failed?.stdout).toMatch(/^backup drill FAILED: \d+ problems$/m);
  }, 120_000);
});
