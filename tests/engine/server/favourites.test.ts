/**
 * Favourite pairs on the live server (issue 26 item 3), on PostgreSQL when DATABASE_URL is set: the table
 * migrated (0013), one row per member and pair enforced by the database, set and unset over HTTP and pulled
 * by the member's devices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlStore } from '../../../server/sql-store';
import { signUp, startTestServer, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
let server: TestServer;
let ann: Session;

beforeAll(async () => {
  const store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({ storage: store });
  ann = await signUp(server, 'ann');
});

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

describe(`favourite pairs over HTTP (${sqlKind})`, () => {
  it('sets, lists, unsets and syncs a favourite pair', async () => {
    const on = await server.call('/api/market/favourite', { symbol: 'BTC/USDT', favourite: true }, ann);
    expect(on).toMatchObject({ code: 0, data: { symbol: 'BTC/USDT', favourite: true } });
    expect(
      (await server.call('/api/market/favourite', { symbol: 'BTC/USDT', favourite: true }, ann)).code,
    ).toBe(0);
    const listed = await server.call('/api/market/favourites', undefined, ann);
    expect((listed.data as { list: Array<{ symbol: string }> }).list.map((f) => f.symbol)).toEqual([
      'BTC/USDT',
    ]);
    const pulled = (await server.call('/api/sync/pull', {}, ann)).data as {
      changes: Array<{ table: string; record: { symbol: string } }>;
    };
    expect(pulled.changes.filter((c) => c.table === 'favourites').map((c) => c.record.symbol)).toEqual([
      'BTC/USDT',
    ]);
    expect(
      (await server.call('/api/market/favourite', { symbol: 'BTC/USDT', favourite: false }, ann)).code,
    ).toBe(0);
    const after = await server.call('/api/market/favourites', undefined, ann);
    expect((after.data as { list: unknown[] }).list).toEqual([]);
    expect(
      (await server.call('/api/market/favourite', { symbol: 'XYZ/USDT', favourite: true }, ann)).code,
    ).toBe(400);
  });
});
