/**
 * The database roles of a production deployment (audit L7, docs/DEPLOY.md "Database roles"), on
 * PostgreSQL: `createRoles` (npm run db:roles) makes a migrations role owning the schema and a runtime role;
 * `runMigrations` (npm run migrate) migrates as the former and grants the latter; a server connected as
 * the runtime role with MIGRATE_AT_START=false serves members (a transfer) and operators (audit rows
 * written), while the runtime role cannot update, delete or truncate audit rows, nor disable the audit
 * log's triggers, nor change the schema. Roles get unique names and are dropped afterwards.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createRoles, runMigrations } from '../../../server/db-roles';
import { postgresDriver, type SqlDriver } from '../../../server/sql-driver';
import { SchemaBehind, SqlStore } from '../../../server/sql-store';
import { makeOperator } from './admin-helpers';
import { deposit, signUp, startTestServer } from './serve';
import { dropSchema, freshSchema, sqlKind } from './sql';

const url = process.env['DATABASE_URL'] ?? '';
const suffix = crypto.randomUUID().replaceAll('-', '').slice(0, 12);
const roles = { schema: freshSchema(), migrator: `t_mig_${suffix}`, runtime: `t_app_${suffix}` };
/** An existing deployment's schema (migrated by the server's old all-powerful role), then given roles. */
const existing = { schema: freshSchema(), migrator: `t_mgx_${suffix}`, runtime: `t_apx_${suffix}` };

/** DATABASE_URL as another role (the test database trusts local connections; production: passwords). */
function as(role: string): string {
  const u = new URL(url);
  u.username = role;
  u.password = '';
  return u.toString();
}

afterAll(async () => {
  if (sqlKind !== 'postgres') return;
  await dropSchema(roles.schema);
  await dropSchema(existing.schema);
  const admin = await postgresDriver(url, { poolSize: 1 });
  try {
    for (const role of [roles.runtime, roles.migrator, existing.runtime, existing.migrator]) {
      await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
    }
  } finally {
    await admin.close();
  }
});

describe.runIf(sqlKind === 'postgres')('database roles (L7)', () => {
  it('the runtime role serves a transfer and writes audit rows, but cannot change or delete them', async () => {
    const admin = await postgresDriver(url, { poolSize: 1 });
    try {
      await createRoles(admin, roles);
      const { rows } = await admin.query<{ rolsuper: boolean; owner: string }>(
        `SELECT r.rolsuper, n.nspowner::regrole::text AS owner FROM pg_roles r, pg_namespace n
          WHERE r.rolname = $1 AND n.nspname = $2`,
        [roles.runtime, roles.schema],
      );
      expect(rows[0]).toEqual({ rolsuper: false, owner: roles.migrator });
    } finally {
      await admin.close();
    }

    // The runtime role cannot migrate, and a server that may not migrate refuses a schema behind its build.
    const early = await postgresDriver(as(roles.runtime), { poolSize: 1 });
    const refused = await SqlStore.open(early, { schema: roles.schema, migrate: false }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(SchemaBehind);
    expect((refused as Error).message).toMatch(/npm run migrate/);

    const ran = await runMigrations(as(roles.migrator), roles.schema, roles.runtime);
    expect(ran.length).toBeGreaterThan(10);
    expect(await runMigrations(as(roles.migrator), roles.schema, roles.runtime)).toEqual([]);

    const runtime: SqlDriver = await postgresDriver(as(roles.runtime), { poolSize: 4 });
    const store = await SqlStore.open(runtime, { schema: roles.schema, migrate: false });
    const server = await startTestServer({ storage: store, config: { loginPerIpPerMinute: 1_000 } });
    try {
      const ann = await signUp(server, 'ann');
      const bob = await signUp(server, 'bob');
      await deposit(server, ann, '100', 1);
      await deposit(server, bob, '100', 2);
      expect((await server.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob)).code).toBe(0);
      expect((await server.call('/api/transfer/submit', { account: 'bob', amount: '10' }, ann)).code).toBe(0);
      expect((await server.call('/api/user/getuser', undefined, ann)).data.balance).toBe('90');
      expect(await server.engine.diagnostics.checkInvariants()).toEqual([]);

      // An operator's sign-in is audited: the runtime role appends to the audit log.
      await makeOperator(store, server, 'root', 'admin');
      const s = roles.schema;
      const { rows } = await store.driver.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${s}.audit_log`,
      );
      expect(Number(rows[0]?.n)).toBeGreaterThan(0);

      // ... and can neither change nor remove what it wrote (refused by its privileges, before any trigger).
      const denied = async (sql: string) => {
        const error = (await store.driver.query(sql).catch((e: unknown) => e)) as {
          code?: string;
          message?: string;
        };
        expect(error.code).toBe('42501');
        return error.message ?? '';
      };
      expect(await denied(`UPDATE ${s}.audit_log SET action = 'nothing'`)).toMatch(
        /permission denied for table audit_log/,
      );
      expect(await denied(`DELETE FROM ${s}.audit_log`)).toMatch(/permission denied for table audit_log/);
      expect(await denied(`TRUNCATE ${s}.audit_log`)).toMatch(/permission denied for table audit_log/);
      expect(await denied(`ALTER TABLE ${s}.audit_log DISABLE TRIGGER ALL`)).toMatch(/must be owner/);
      expect(await denied(`DROP TABLE ${s}.audit_log`)).toMatch(/must be owner/);
      expect(await denied(`CREATE TABLE ${s}.intruder (x int)`)).toMatch(/permission denied for schema/);
      expect(await denied(`DELETE FROM ${s}.strata_migrations`)).toMatch(/permission denied/);
      const { rows: after } = await store.driver.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${s}.audit_log`,
      );
      expect(after[0]?.n).toBe(rows[0]?.n);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('on an existing schema: its tables, sequences and functions pass to the migrations role, the audit log insert-only', async () => {
    await runMigrations(url, existing.schema, undefined);
    const admin = await postgresDriver(url, { poolSize: 1 });
    try {
      await createRoles(admin, existing);
      const owners = await admin.query<{ owner: string }>(
        `SELECT DISTINCT c.relowner::regrole::text AS owner FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1
         UNION SELECT DISTINCT p.proowner::regrole::text FROM pg_proc p
           JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1`,
        [existing.schema],
      );
      expect(owners.rows).toEqual([{ owner: existing.migrator }]);
      const grants = await admin.query<{ privilege_type: string }>(
        `SELECT privilege_type FROM information_schema.role_table_grants
          WHERE table_schema = $1 AND table_name = 'audit_log' AND grantee = $2 ORDER BY 1`,
        [existing.schema, existing.runtime],
      );
      expect(grants.rows.map((r) => r.privilege_type)).toEqual(['INSERT', 'SELECT']);
    } finally {
      await admin.close();
    }
    // The migrations role can migrate it from now on (nothing pending here), granting the runtime role.
    expect(await runMigrations(as(existing.migrator), existing.schema, existing.runtime)).toEqual([]);
  }, 60_000);
});
