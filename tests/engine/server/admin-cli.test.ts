/**
 * Bootstrapping the first admin (docs/OPERATIONS.md): `npm run admin:create` creates an operator from the
 * password in ADMIN_PASSWORD or stdin, prints its TOTP secret once, and that operator can then log in.
 * Runs the CLI as its own process against the test database (PostgreSQL, or PGlite in a temporary data
 * directory).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteDriver, type SqlDriver } from '../../../server/sql-driver';
import { SqlStore } from '../../../server/sql-store';
import { startTestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
const dataDir = await mkdtemp(join(tmpdir(), 'strata-admin-cli-'));
const databaseUrl = process.env['DATABASE_URL'];

afterAll(async () => {
  if (databaseUrl) await dropSchema(schema);
  await rm(dataDir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>, stdin?: string) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args], {
      env: {
        PATH: process.env['PATH'] ?? '',
        DB_SCHEMA: schema,
        PBKDF2_ITERATIONS: '1000',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(stdin ?? '');
  });
}

async function driver(): Promise<SqlDriver> {
  return databaseUrl ? testDriver() : pgliteDriver(dataDir);
}

describe(`admin:create (${sqlKind})`, () => {
  it('creates an operator from ADMIN_PASSWORD or stdin, prints the TOTP secret once, refuses bad input', async () => {
    const made = await cli(['--username', 'alice', '--role', 'admin'], {
      ADMIN_PASSWORD: 'a long enough password',
    });
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    const secret = /TOTP secret: ([A-Z2-7]+)/.exec(made.out)?.[1] ?? '';
    expect(secret).not.toBe('');
    expect(made.out).toContain(`otpauth://totp/`);
    const piped = await cli(['--username', 'bruno', '--role', 'reviewer'], {}, 'piped password here\n');
    expect(piped.code).toBe(0);
    expect(
      (await cli(['--username', 'alice', '--role', 'admin'], { ADMIN_PASSWORD: 'a long enough password' }))
        .code,
    ).toBe(1);
    expect((await cli(['--username', 'carl', '--role', 'admin'], { ADMIN_PASSWORD: 'short' })).code).toBe(1);
    expect(
      (await cli(['--username', 'dora', '--role', 'owner'], { ADMIN_PASSWORD: 'a long enough password' }))
        .code,
    ).toBe(2);

    const store = await SqlStore.open(await driver(), { schema });
    const { rows } = await store.driver.query<{ username: string; role: string; password_hash: string }>(
      `SELECT username, role, password_hash FROM ${schema}.operators ORDER BY id`,
    );
    expect(rows.map((r) => [r.username, r.role])).toEqual([
      ['alice', 'admin'],
      ['bruno', 'reviewer'],
    ]);
    expect(rows[0]?.password_hash).toMatch(/^pbkdf2-sha256\$1000\$/);
    const server = await startTestServer({ storage: store });
    try {
      const totp = await generate({ secret, epoch: Math.floor(server.clock.now() / 1000) });
      const r = await fetch(`${server.url}/api/admin/login`, {
        method: 'POST',
        body: JSON.stringify({ username: 'alice', password: 'a long enough password', totp }),
      });
      expect(await r.json()).toMatchObject({
        code: 0,
        data: { operator: { username: 'alice', role: 'admin' } },
      });
    } finally {
      await server.close();
    }
  }, 120_000);
});
