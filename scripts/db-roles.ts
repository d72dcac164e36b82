/**
 * `npm run db:roles`: creates the migrations role and the runtime role for DB_SCHEMA (default strata) over
 * DATABASE_URL, which must be a role that may create roles (a superuser or the managed database's admin):
 * MIGRATOR_ROLE (default strata_migrator) owns the schema, RUNTIME_ROLE (default strata_app) gets only the
 * privileges the server needs, the audit log insert-only (server/db-roles.ts; docs/DEPLOY.md "Database
 * roles"). MIGRATOR_PASSWORD and RUNTIME_PASSWORD, when set, become the roles' passwords. Idempotent.
 */
import { createRoles } from '../server/db-roles';
import { postgresDriver } from '../server/sql-driver';

const databaseUrl = process.env['DATABASE_URL']?.trim();
if (!databaseUrl) {
  console.error('db:roles: DATABASE_URL (an administrator of the PostgreSQL database) is required');
  process.exit(1);
}
const roles = {
  schema: process.env['DB_SCHEMA']?.trim() || 'strata',
  migrator: process.env['MIGRATOR_ROLE']?.trim() || 'strata_migrator',
  runtime: process.env['RUNTIME_ROLE']?.trim() || 'strata_app',
};
const driver = await postgresDriver(databaseUrl, { poolSize: 1 });
try {
  await createRoles(driver, roles, {
    migrator: process.env['MIGRATOR_PASSWORD'] || undefined,
    runtime: process.env['RUNTIME_PASSWORD'] || undefined,
  });
  console.log(
    `roles ready: ${roles.migrator} owns schema ${roles.schema} (npm run migrate), ` +
      `${roles.runtime} has the server's privileges (DATABASE_URL of the instances, MIGRATE_AT_START=false)`,
  );
} catch (error) {
  console.error(`db:roles failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await driver.close();
}
