/**
 * The event bus between instances (server/events.ts): on PostgreSQL a message published by one bus is heard
 * by every bus on the same schema (itself included), large messages through the overflow table, and a
 * schema's channel is its own. The local bus (PGlite, memory) delivers in-process. The background-work lease
 * (server/cluster.ts) has one holder at a time and passes on when its holder stops or stops renewing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openCluster } from '../../../server/cluster';
import { localBus, postgresBus, type BusMessage, type EventBus } from '../../../server/events';
import { SqlStore } from '../../../server/sql-store';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schemas: string[] = [];
const closers: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const close of closers) await close();
  for (const schema of schemas) await dropSchema(schema);
});

/** Resolves with the first message `bus` hears that `match` accepts. */
function heard(bus: EventBus, match: (m: BusMessage) => boolean): Promise<BusMessage> {
  return new Promise((resolve) => {
    const stop = bus.subscribe((m) => {
      if (!match(m)) return;
      stop();
      resolve(m);
    });
  });
}

async function busOn(schema: string): Promise<EventBus> {
  const store = await SqlStore.open(await testDriver(), { schema });
  const bus = await postgresBus({ url: process.env['DATABASE_URL'] ?? '', schema, driver: store.driver });
  closers.push(async () => {
    await bus.close();
    await store.close();
  });
  return bus;
}

describe('event bus and background-work lease', () => {
  it('the local bus delivers to every subscriber until it unsubscribes', () => {
    const bus = localBus();
    const got: string[] = [];
    const stop = bus.subscribe((m) => got.push(m.type));
    bus.subscribe((m) => got.push(`2:${m.type}`));
    bus.publish({ type: 'balance', data: { memberId: '1' } });
    stop();
    bus.publish({ type: 'order', data: { memberId: '1', id: 'o1' } });
    expect(got).toEqual(['balance', '2:balance', '2:order']);
  });

  it.runIf(sqlKind === 'postgres')(
    'postgres: every bus on the schema hears a message, a large one too; another schema hears nothing',
    async () => {
      const schema = freshSchema();
      const other = freshSchema();
      schemas.push(schema, other);
      const [one, two, elsewhere] = await Promise.all([busOn(schema), busOn(schema), busOn(other)]);
      const strays: BusMessage[] = [];
      elsewhere.subscribe((m) => strays.push(m));

      const small: BusMessage = { type: 'balance', data: { memberId: '100001' } };
      const gotSmall = Promise.all([
        heard(one, (m) => m.type === 'balance'),
        heard(two, (m) => m.type === 'balance'),
      ]);
      one.publish(small);
      expect(await gotSmall).toEqual([small, small]);

      // Over the 8,000-byte NOTIFY limit: carried through strata_events.
      const big: BusMessage = {
        type: 'market.snapshot',
        data: { symbol: 'BTC/USDT', buy: 'x'.repeat(20_000) },
      };
      const gotBig = heard(one, (m) => m.type === 'market.snapshot');
      two.publish(big);
      expect(await gotBig).toEqual(big);

      // A round trip on the other schema's bus proves its listener is live, and it heard none of the above.
      const own = heard(elsewhere, (m) => m.type === 'position');
      elsewhere.publish({ type: 'position', data: { memberId: '1', id: 'p1', status: 'closed' } });
      await own;
      expect(strays.map((m) => m.type)).toEqual(['position']);
    },
    60_000,
  );

  it.runIf(sqlKind === 'postgres')(
    'postgres: one instance at a time holds the background-work lease; a dead holder is replaced after expiry',
    async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const databaseUrl = process.env['DATABASE_URL'];
      const stores = await Promise.all(
        [0, 1, 2].map(async () => SqlStore.open(await testDriver(), { schema })),
      );
      closers.push(async () => {
        for (const store of stores) await store.close();
      });
      const [s1, s2, s3] = stores as [SqlStore, SqlStore, SqlStore];
      const first = await openCluster(s1, { databaseUrl, leaseMs: 60_000 });
      const second = await openCluster(s2, { databaseUrl, leaseMs: 60_000 });
      expect(await first.mayRunBackgroundWork()).toBe(true);
      expect(await second.mayRunBackgroundWork()).toBe(false);
      expect(await first.mayRunBackgroundWork()).toBe(true); // renewal
      // A clean stop hands the lease back at once.
      await first.close();
      expect(await second.mayRunBackgroundWork()).toBe(true);
      // A holder that stops renewing (killed) loses it once it expires.
      const third = await openCluster(s3, { databaseUrl, leaseMs: 60_000 });
      await s2.driver.query(`UPDATE ${schema}.strata_leases SET expires_at = now() - interval '1 second'`);
      expect(await third.mayRunBackgroundWork()).toBe(true);
      expect(await second.mayRunBackgroundWork()).toBe(false);
      await second.close();
      await third.close();
    },
    60_000,
  );
});
