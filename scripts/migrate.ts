/**
 * `npm run migrate`: runs the pending migrations of DB_SCHEMA (default strata) over DATABASE_URL, which
 * names the migrations role, then grants RUNTIME_ROLE (the server's role, when set) its privileges on the
 * schema as migrated (server/db-roles.ts; docs/DEPLOY.md "Database roles"). Run it before starting a build
 * whose instances have MIGRATE_AT_START=false. Exit 0 when done, 1 when it failed (nothing is changed:
 * all pending migrations run in one transaction).
 */
import { runMigrations } from '../server/db-roles';

const databaseUrl = process.env['DATABASE_URL']?.trim();
if (!databaseUrl) {
  console.error('migrate: DATABASE_URL (the migrations role on the PostgreSQL database) is required');
  process.exit(1);
}
const schema = process.env['DB_SCHEMA']?.trim() || 'strata';
const runtime = process.env['RUNTIME_ROLE']?.trim() || undefined;
try {
  const ran = await runMigrations(databaseUrl, schema, runtime);
  console.log(
    ran.length > 0
      ? `migrated ${schema}: ${ran.join(', ')}`
      : `${schema} is up to date (no pending migration)`,
  );
  if (runtime) console.log(`${runtime}: runtime privileges granted on ${schema} (audit_log insert-only)`);
} catch (error) {
  console.error(`migrate failed, nothing changed: ${(error as Error).message}`);
  process.exit(1);
}
