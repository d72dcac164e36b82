/**
 * Issue 11 item 8: PostgreSQL connections killed under load (pg_terminate_backend, as a failover or an
 * operator does) never crash the server or answer 500. A call whose connection died may fail with a clear
 * code; every call after that is served on fresh connections, and money is conserved whatever committed.
 *
 * Only this test's own connections are terminated: its server connects with an application_name of its own,
 * so test files running beside it on the same database keep theirs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../engine/index';
import { postgresDriver } from '../../../server/sql-driver';
import { SqlStore } from '../../../server/sql-store';
import { deposit, signUp, startTestServer, type Envelope } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
const appName = `strata_${schema}`;

afterAll(() => (sqlKind === 'postgres' ? dropSchema(schema) : undefined));

async function terminateOwnConnections(): Promise<number> {
  const driver = await testDriver();
  try {
    const { rows } = await driver.query<{ n: string }>(
      `SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE application_name = $1`,
      [appName],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await driver.close();
  }
}

describe.runIf(sqlKind === 'postgres')('PostgreSQL connections killed under load (postgres)', () => {
  it('G18 no crash and no 500 while connections die; the server recovers and money is conserved', async () => {
    const url = new URL(String(process.env['DATABASE_URL']));
    url.searchParams.set('application_name', appName);
    const server = await startTestServer({
      storage: await SqlStore.open(await postgresDriver(url.toString()), { schema }),
      clock: manualClock(Date.now()),
    });
    const ann = await signUp(server, 'ann');
    const bob = await signUp(server, 'bob');
    await deposit(server, ann, '1000', 1);
    await deposit(server, bob, '100', 2);
    expect((await server.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob)).code).toBe(0);

    const answers: Envelope[] = [];
    let terminated = 0;
    const worker = async () => {
      for (let i = 0; i < 15; i++) {
        answers.push(await server.call('/api/transfer/submit', { account: 'bob', amount: '1' }, ann));
        if (answers.length === 20) terminated = await terminateOwnConnections();
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));

    expect(terminated).toBeGreaterThan(0);
    // Every call answered the envelope; none with 500 or a stack trace.
    expect(answers).toHaveLength(60);
    expect(answers.filter((a) => a.code === 500)).toEqual([]);
    expect(answers.filter((a) => /\bat .+:\d+:\d+/.test(a.msg))).toEqual([]);
    const ok = answers.filter((a) => a.code === 0).length;
    expect(ok).toBeGreaterThan(40);

    // Served again on fresh connections, and what committed is exactly what moved.
    expect((await server.call('/api/transfer/submit', { account: 'bob', amount: '1' }, ann)).code).toBe(0);
    const balance = async () => (await server.call('/api/user/getuser', undefined, ann)).data.balance;
    const driver = await testDriver();
    const { rows } = await driver.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${schema}.transfers`);
    await driver.close();
    expect(Number(await balance())).toBe(1000 - Number(rows[0]?.n));
    expect(await server.engine.diagnostics.checkInvariants()).toEqual([]);
    await server.close();
  }, 120_000);
});
