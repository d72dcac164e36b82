/**
 * The withdrawal address book on the live server (issue 27 items 3 and 4), on PostgreSQL when DATABASE_URL is
 * set: its tables migrated (0010) with one entry per member, network and address enforced by the database,
 * the whitelist and its hold over HTTP, the member's own deposit address refused, and the transfer recipient's
 * masked preview.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyOf } from '../../../engine/index';
import { SqlStore } from '../../../server/sql-store';
import { deposit, signUp, startTestServer, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
const TRC = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let server: TestServer;
let store: SqlStore;
let ann: Session;

const withdrawal = (address: string): BodyOf<'/api/withdraw/submit'> => ({
  currency: 'USDT',
  network: 'TRC20',
  address,
  amount: '20',
  key: 'key1',
});

beforeAll(async () => {
  store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({ storage: store });
  ann = await signUp(server, 'ann');
  await deposit(server, ann, '100', 1);
});

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

describe(`address book over HTTP (${sqlKind})`, () => {
  it('W10 the whitelist holds a new address for 24 hours, then lets the withdrawal through', async () => {
    expect((await server.call('/api/addressbook/whitelist', { on: true }, ann)).code).toBe(0);
    expect((await server.call('/api/withdraw/submit', withdrawal(TRC), ann)).code).toBe(6126);
    const added = await server.call(
      '/api/addressbook/add',
      { network: 'TRC20', address: TRC, label: 'Cold' },
      ann,
    );
    expect(added.code).toBe(0);
    const held = await server.call('/api/withdraw/submit', withdrawal(TRC), ann);
    expect(held).toMatchObject({
      code: 6127,
      data: { usableAt: added.data.usableAt },
    });
    server.clock.advance(24 * 3_600_000);
    expect((await server.call('/api/withdraw/submit', withdrawal(TRC), ann)).code).toBe(911);
  });

  it('W9 the member’s own deposit address is refused (6124) and nothing is frozen', async () => {
    const own = (await server.call('/api/recharge/address', { network: 'TRC20' }, ann)).data.address;
    const before = (await server.call('/api/user/getuser', undefined, ann)).data;
    expect((await server.call('/api/addressbook/whitelist', { on: false }, ann)).code).toBe(0);
    expect((await server.call('/api/withdraw/submit', withdrawal(own), ann)).code).toBe(6124);
    expect((await server.call('/api/user/getuser', undefined, ann)).data.available).toBe(before.available);
  });

  it('0010 the saved addresses are typed rows, one per member, network and address', async () => {
    const { rows } = await store.driver.query<{ network: string; address: string; usable_at: string }>(
      `SELECT network, address, usable_at FROM ${schema}.member_saved_addresses`,
    );
    expect(rows).toEqual([{ network: 'TRC20', address: TRC, usable_at: expect.any(String) }]);
    const [row] = (
      await store.driver.query<{ id: string; v: Record<string, unknown> }>(
        `SELECT id, v FROM ${schema}.member_saved_addresses`,
      )
    ).rows;
    await expect(
      store.driver.query(`INSERT INTO ${schema}.member_saved_addresses (id, v) VALUES ($1, $2)`, [
        `${row?.id}-copy`,
        JSON.stringify({ ...row?.v, id: `${row?.id}-copy` }),
      ]),
    ).rejects.toThrow(/unique/i);
    const { rows: setting } = await store.driver.query<{ v: { whitelist: boolean } }>(
      `SELECT v FROM ${schema}.member_address_book`,
    );
    expect(setting.map((r) => r.v.whitelist)).toEqual([false]);
  });

  it('T8 the transfer recipient is previewed masked, and nobody is refused before the sheet', async () => {
    const bob = await signUp(server, 'bobby123');
    await deposit(server, bob, '600', 2);
    expect((await server.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, bob)).code).toBe(0);
    expect(await server.call('/api/transfer/recipient', { account: 'bobby123' }, ann)).toMatchObject({
      code: 0,
      data: { name: 'bo***23', vip: 'vip2' },
    });
    expect((await server.call('/api/transfer/recipient', { account: 'nobody_here_xyz' }, ann)).code).toBe(
      3000,
    );
    expect((await server.callRaw('/api/transfer/recipient', { account: 7 }, ann)).code).toBe(400);
  });
});
