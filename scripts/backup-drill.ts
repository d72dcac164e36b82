/**
 * `npm run backup:drill [-- --out FILE] [-- --keep-database]`: backs up DATABASE_URL's schema DB_SCHEMA
 * (default strata) at one snapshot with pg_dump, restores it into a fresh database and checks the copy
 * (server/backup-drill.ts; docs/OPERATIONS.md "Runbook: backup and restore"). Exit 0 when every check
 * passes, 1 when one fails (each problem printed), 2 when the drill could not run.
 */
import { backupDrill } from '../server/backup-drill';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const databaseUrl = process.env['DATABASE_URL']?.trim();
if (!databaseUrl) {
  console.error('backup drill: DATABASE_URL (the PostgreSQL database to back up) is required');
  process.exit(2);
}
try {
  const report = await backupDrill({
    databaseUrl,
    schema: process.env['DB_SCHEMA']?.trim() || 'strata',
    backupFile: outAt >= 0 ? args[outAt + 1] : undefined,
    keepDatabase: args.includes('--keep-database'),
    log: (line) => console.log(line),
  });
  for (const problem of report.problems) console.error(`FAILED ${problem}`);
  console.log(
    report.ok
      ? `backup drill passed: ${report.rows} rows in ${report.tables} tables restored and checked`
      : `backup drill FAILED: ${report.problems.length} problems`,
  );
  process.exit(report.ok ? 0 : 1);
} catch (error) {
  console.error(`backup drill could not run: ${(error as Error).message}`);
  process.exit(2);
}
