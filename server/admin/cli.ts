/**
 * Bootstrapping operators: `ADMIN_PASSWORD='...' npm run admin:create -- --username alice --role admin` (or
 * the password on stdin, prompted without echo; never on the command line). Connects like the server, runs
 * the migrations, creates the operator and prints its TOTP secret and otpauth URL once. No default operator
 * or password. With PGlite, stop the server first. docs/OPERATIONS.md "Bootstrapping the first admin".
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { openStorage } from '../app';
import { configFromEnv } from '../config';
import { SqlStore } from '../sql-store';
import { ROLES, type OperatorRole } from '../../contract/admin/model';
import { insertOperator, newOperator } from './auth';
import { AdminError, audit, inTransaction } from './db';
import { defaultConfig } from '../../engine/server';

const USAGE =
  'Usage: npm run admin:create -- --username <name> --role <reviewer|finance|admin>\n' +
  '  The password is read from ADMIN_PASSWORD or stdin (at least 12 characters).';

function argument(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`--${name}=`));
  return inline?.slice(name.length + 3);
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env['ADMIN_PASSWORD'];
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  // A terminal: prompt, echoing nothing.
  process.stderr.write('Password: ');
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  const line = await new Promise<string>((resolve) => rl.once('line', resolve));
  rl.close();
  process.stderr.write('\n');
  return line;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const username = argument(args, 'username');
  const role = argument(args, 'role') as OperatorRole | undefined;
  if (!username || !role || !(ROLES as readonly string[]).includes(role)) {
    console.error(USAGE);
    return 2;
  }
  const password = await readPassword();
  const config = configFromEnv(process.env);
  if (config.storage === 'memory') {
    console.error('STORAGE=memory keeps nothing: operators need SQL storage');
    return 2;
  }
  const store = await openStorage(config);
  if (!(store instanceof SqlStore)) return 2;
  try {
    const now = Date.now();
    // Hashed before the transaction: no connection is held while the hash runs.
    const operator = await newOperator(
      { username, password, role },
      config.pbkdf2Iterations ?? defaultConfig.pbkdf2Iterations,
    );
    const created = await inTransaction(store.driver, async (c) => {
      const made = await insertOperator(c, store.schema, operator, now);
      await audit(c, store.schema, {
        at: now,
        operator: made.row,
        action: 'operator.bootstrap',
        target: `operator:${made.operator.id}`,
        after: { username: made.operator.username, role: made.operator.role },
        reason: 'created with npm run admin:create',
        ip: 'cli',
      });
      return made;
    });
    console.log(
      `Operator ${created.operator.username} (${created.operator.role}) created, id ${created.operator.id}.`,
    );
    console.log("Add this TOTP key to the operator's authenticator app now: it is not shown again.");
    console.log(`TOTP secret: ${created.totpSecret}`);
    console.log(`otpauth URL: ${created.otpauthUrl}`);
    return 0;
  } catch (error) {
    if (error instanceof AdminError) {
      console.error(`Not created: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}

process.exitCode = await main();
