/**
 * kill -9 of one instance during a burst (issue 11): every transfer the killed instance acknowledged is in
 * the database (a unit of work answers only after its COMMIT), money is conserved including the transfers
 * whose answer was lost, the other instance serves on, and the killed one restarts beside it. PostgreSQL
 * only: the instances are separate processes on one database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../engine/index';
import { SqlStore } from '../../../server/sql-store';
import { deposit, signUp, startTestServer, TEST_XPUB, type Envelope, type Session } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await dropSchema(schema);
});

/** Starts tests/engine/server/instance-child.ts on the schema; resolves with the child and its URL. */
async function startChild(): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./instance-child.ts', import.meta.url).pathname],
    {
      env: {
        ...process.env,
        DB_SCHEMA: schema,
        PBKDF2_ITERATIONS: '1000',
        DEMO: 'false',
        // A live instance needs its watch-only deposit key (docs/SERVER.md "Key custody").
        WALLET_XPUB: TEST_XPUB,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    },
  );
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`instance exited with ${code} before listening`)));
  });
  return { child, url, exited };
}

async function call(url: string, path: string, body: unknown, session: Session): Promise<Envelope> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...session.headers },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Envelope;
}

describe.runIf(sqlKind === 'postgres')('kill -9 of one instance during a burst (postgres)', () => {
  it('G1 acknowledged writes are durable, the other instance serves on, the killed one restarts', async () => {
    const databaseUrl = process.env['DATABASE_URL'];
    const a = await startTestServer({
      storage: await SqlStore.open(await testDriver(), { schema }),
      clock: manualClock(Date.now()),
      config: { databaseUrl },
    });
    const ann = await signUp(a, 'ann');
    const bob = await signUp(a, 'bob');
    await deposit(a, ann, '1000', 1);
    await deposit(a, bob, '100', 2);
    expect((await a.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob)).code).toBe(0);

    const { child, url, exited } = await startChild();
    const acked: string[] = [];
    let killed = false;
    const worker = async () => {
      for (;;) {
        try {
          const r = await call(url, '/api/transfer/submit', { account: 'bob', amount: '1' }, ann);
          expect(r.code).toBe(0);
          acked.push(String((r.data as { id: string }).id));
          if (acked.length >= 40 && !killed && child.pid) {
            killed = true;
            process.kill(-child.pid, 'SIGKILL');
          }
        } catch (error) {
          if (killed) return; // the instance is gone: the answer was lost, whatever happened to the call
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    await exited;
    expect(killed).toBe(true);

    const driver = await testDriver();
    const { rows } = await driver.query<{ id: string }>(`SELECT id FROM ${schema}.transfers`);
    await driver.close();
    const stored = new Set(rows.map((r) => r.id));
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    // Money is conserved, counting the transfers committed whose answer never arrived.
    const balance = async (who: Session) =>
      ((await a.call('/api/user/getuser', {}, who)).data as { balance: string }).balance;
    expect(Number(await balance(ann))).toBe(1000 - stored.size);
    expect(await a.engine.diagnostics.checkInvariants()).toEqual([]);

    // The survivor serves on, and the killed instance restarts beside it on the same database.
    expect((await a.call('/api/transfer/submit', { account: 'bob', amount: '2' }, ann)).code).toBe(0);
    const again = await startChild();
    const seen = await call(again.url, '/api/user/getuser', {}, ann);
    expect(seen.code).toBe(0);
    expect(Number((seen.data as { balance: string }).balance)).toBe(1000 - stored.size - 2);
    again.child.kill('SIGTERM');
    await again.exited;
    await a.close();
    // Two server processes start in this test: on a loaded 2-core machine each takes several seconds.
  }, 180_000);
});
