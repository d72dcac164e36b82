/**
 * PostgreSQL roles for a production deployment: the schema is owned by a migrations role (`npm run
 * migrate`); the server connects as a runtime role that owns nothing and may only read and write rows, with
 * INSERT and SELECT only on the audit log (and no way to disable its triggers). `createRoles` runs once
 * (`npm run db:roles`), `grantRuntime` after every migration. docs/DEPLOY.md "Database roles",
 * docs/OPERATIONS.md "Runbook: database roles and migrations".
 */
import { checkSchemaName, postgresDriver, type SqlConnection } from './sql-driver';
import { migrate } from './sql-schema';

export interface DatabaseRoles {
  /** The schema the server uses (DB_SCHEMA). */
  schema: string;
  /** Owns the schema and runs migrations. */
  migrator: string;
  /** The server's DATABASE_URL role. */
  runtime: string;
}

/** Tables the runtime role may read and append to, never change: the audit log. */
export const APPEND_ONLY_TABLES = ['audit_log'] as const;
/** Tables only migrations write: the runtime role reads them. */
const CATALOGUE_TABLES = ['strata_migrations', 'strata_tables'] as const;

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function roleName(name: string, what: string): string {
  if (!ROLE_NAME.test(name))
    throw new TypeError(`${what} must be a plain role name (lower-case letters, digits, _): ${name}`);
  return name;
}

const quoteLiteral = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Creates both roles (LOGIN, no superuser, no CREATEROLE, no CREATEDB) when they do not exist, sets their
 * passwords when given, hands the schema and everything in it to the migrations role, and grants the
 * runtime role its privileges on what exists (and, by default privileges, on what the migrations role
 * creates later). Idempotent: run it again after changing a password.
 */
export async function createRoles(
  c: SqlConnection,
  roles: DatabaseRoles,
  passwords: { migrator?: string; runtime?: string } = {},
): Promise<void> {
  const s = checkSchemaName(roles.schema);
  const migrator = roleName(roles.migrator, 'The migrations role');
  const runtime = roleName(roles.runtime, 'The runtime role');
  if (migrator === runtime) throw new TypeError('The migrations role and the runtime role must differ');
  for (const [role, password] of [
    [migrator, passwords.migrator],
    [runtime, passwords.runtime],
  ] as const) {
    const { rows } = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (rows.length === 0)
      await c.query(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT`);
    await c.query(`ALTER ROLE ${role} NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS`);
    if (password) await c.query(`ALTER ROLE ${role} PASSWORD ${quoteLiteral(password)}`);
  }
  const { rows: db } = await c.query<{ name: string }>('SELECT current_database() AS name');
  const database = `"${String(db[0]?.name).replaceAll('"', '""')}"`;
  await c.query(`GRANT CONNECT ON DATABASE ${database} TO ${migrator}, ${runtime}`);
  // Nobody else creates objects in the schema, and the public schema is no back door.
  await c.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
  await c.query(`CREATE SCHEMA IF NOT EXISTS ${s} AUTHORIZATION ${migrator}`);
  await c.query(`ALTER SCHEMA ${s} OWNER TO ${migrator}`);
  // An existing deployment: its tables, sequences and functions pass to the migrations role.
  await c.query(`
    DO $$
    DECLARE r record;
    BEGIN
      FOR r IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = ${quoteLiteral(s)} AND c.relkind IN ('r', 'p', 'S', 'v', 'm')
                 -- A serial/identity column's sequence follows its table.
                 AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                   AND d.objid = c.oid AND d.deptype IN ('a', 'i') AND d.refobjsubid > 0) LOOP
        EXECUTE format('ALTER %s %I.%I OWNER TO %I',
          CASE WHEN r.relkind = 'S' THEN 'SEQUENCE' WHEN r.relkind = 'v' THEN 'VIEW'
               WHEN r.relkind = 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
          ${quoteLiteral(s)}, r.relname, ${quoteLiteral(migrator)});
      END LOOP;
      FOR r IN SELECT p.oid::regprocedure AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
               WHERE n.nspname = ${quoteLiteral(s)} LOOP
        EXECUTE format('ALTER FUNCTION %s OWNER TO %I', r.sig, ${quoteLiteral(migrator)});
      END LOOP;
    END $$`);
  await c.query(
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${migrator} IN SCHEMA ${s} ` +
      `GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${runtime}`,
  );
  await c.query(
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${migrator} IN SCHEMA ${s} ` +
      `GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${runtime}`,
  );
  await grantRuntime(c, s, runtime);
}

/**
 * The runtime role's privileges on schema `s` as it is now: DML on every table and sequence, then the
 * audit log cut down to INSERT and SELECT and the migration catalogue to SELECT. Run by the schema's
 * owner (or a superuser) after each migration.
 */
export async function grantRuntime(c: SqlConnection, schema: string, runtimeRole: string): Promise<void> {
  const s = checkSchemaName(schema);
  const runtime = roleName(runtimeRole, 'The runtime role');
  await c.query(`GRANT USAGE ON SCHEMA ${s} TO ${runtime}`);
  await c.query(`REVOKE CREATE ON SCHEMA ${s} FROM ${runtime}`);
  await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${runtime}`);
  await c.query(`REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA ${s} FROM ${runtime}`);
  await c.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${runtime}`);
  const { rows } = await c.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = $1`,
    [s],
  );
  const present = new Set(rows.map((r) => r.name));
  for (const table of APPEND_ONLY_TABLES) {
    if (!present.has(table)) continue;
    await c.query(`REVOKE UPDATE, DELETE, TRUNCATE ON ${s}.${table} FROM ${runtime}`);
  }
  for (const table of CATALOGUE_TABLES) {
    if (!present.has(table)) continue;
    await c.query(`REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${s}.${table} FROM ${runtime}`);
  }
}

/**
 * `npm run migrate`: brings `schema` up to date over `databaseUrl` (the migrations role's), then, with
 * `runtimeRole`, re-grants that role its privileges on the schema as migrated. Returns the migrations run.
 */
export async function runMigrations(
  databaseUrl: string,
  schema: string,
  runtimeRole: string | undefined,
): Promise<string[]> {
  const driver = await postgresDriver(databaseUrl, { poolSize: 1 });
  try {
    const c = await driver.connect();
    try {
      const ran = await migrate(c, checkSchemaName(schema));
      if (runtimeRole) await grantRuntime(c, schema, runtimeRole);
      return ran;
    } finally {
      c.release();
    }
  } finally {
    await driver.close();
  }
}
