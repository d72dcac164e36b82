/**
 * kill -9 of one instance during a burst (issue 11): every transfer the killed instance acknowledged is in
 * the database (a unit of work answers only after its COMMIT), money is conserved including the transfers
 * whose answer was lost, the other instance serves on, and the killed one restarts beside it. PostgreSQL
 * only: the instances are separate processes on one database.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../engine/index';
import { SqlStore } from '../../../server/sql-store';
import {
  liveEnv,
  post,
  startChild,
  stopChildren,
  storedTransferIds,
  transferUntilKilled,
} from './live-helpers';
import { deposit, signUp, startTestServer, type Session } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();

afterAll(async () => {
  stopChildren();
  await dropSchema(schema);
});

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

    const acked = await transferUntilKilled(await startChild(liveEnv(schema)), ann, 'bob', {
      workers: 6,
      killAfter: 40,
    });
    const stored = await storedTransferIds(schema);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    // Money is conserved, counting the transfers committed whose answer never arrived.
    const balance = async (who: Session) => (await a.call('/api/user/getuser', undefined, who)).data.balance;
    expect(Number(await balance(ann))).toBe(1000 - stored.size);
    expect(await a.engine.diagnostics.checkInvariants()).toEqual([]);

    // The survivor serves on, and the killed instance restarts beside it on the same database.
    expect((await a.call('/api/transfer/submit', { account: 'bob', amount: '2' }, ann)).code).toBe(0);
    const again = await startChild(liveEnv(schema));
    const seen = await post(again.url, '/api/user/getuser', undefined, ann);
    expect(seen.code).toBe(0);
    expect(Number(seen.data.balance)).toBe(1000 - stored.size - 2);
    again.child.kill('SIGTERM');
    await again.exited;
    await a.close();
    // Two server processes start in this test: on a loaded 2-core machine each takes several seconds.
  }, 180_000);
});
