/**
 * Member rows synced to each device, on the live server, on PostgreSQL when DATABASE_URL is set (one
 * migrated schema for both, to keep the suite's time):
 * - favourite pairs (issue 26 item 3): the table migrated (0013), one row per member and pair enforced by the
 *   database, set and unset over HTTP and pulled by the member's devices;
 * - the notices' read state (issue 26 item 4): the table migrated (0017), one row per member kept by the
 *   database, and two sessions of one member (a phone and a tablet) agreeing on what has been read: one
 *   records it through /api/sync/push, the other pulls the same row; racing writes from both end on the
 *   newest id, never an older one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SqlStore } from '../../../server/sql-store';
import { login, signUp, startTestServer, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
let server: TestServer;
let ann: Session;
let phone: Session;
let tablet: Session;
let bob: Session;

function on(session: Session, device: string): Session {
  return { ...session, headers: { ...session.headers, 'X-Device-Id': device } };
}

beforeAll(async () => {
  const store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({ storage: store });
  ann = await signUp(server, 'ann');
  phone = on(await signUp(server, 'cat'), 'phone-device-0001');
  tablet = on(await login(server, 'cat'), 'tablet-device-0002');
  bob = await signUp(server, 'bob');
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
    expect(listed.data.list.map((f) => f.symbol)).toEqual(['BTC/USDT']);
    const pulled = (await server.call('/api/sync/pull', {}, ann)).data;
    expect(pulled.changes.filter((c) => c.table === 'favourites').map((c) => c.record)).toMatchObject([
      { symbol: 'BTC/USDT' },
    ]);
    expect(
      (await server.call('/api/market/favourite', { symbol: 'BTC/USDT', favourite: false }, ann)).code,
    ).toBe(0);
    const after = await server.call('/api/market/favourites', undefined, ann);
    expect(after.data.list).toEqual([]);
    expect(
      (await server.call('/api/market/favourite', { symbol: 'XYZ/USDT', favourite: true }, ann)).code,
    ).toBe(400);
  });
});

/** A notice for the member (setting the anti-phishing code tells them); answers its id. */
async function notice(session: Session, phrase: string): Promise<string> {
  expect((await server.call('/api/security/antiphishing', { phrase }, session)).code).toBe(0);
  const list = (await server.call('/api/security/notices', {}, session)).data;
  return list.list[0]!.id;
}

async function pulledSeen(session: Session): Promise<string[]> {
  const pulled = (await server.call('/api/sync/pull', {}, session)).data;
  return pulled.changes
    .filter((c) => c.table === 'noticeReads')
    .map((c) => z.object({ seen: z.string() }).parse(c.record).seen);
}

describe(`notices read over HTTP (${sqlKind})`, () => {
  it('two sessions of one member agree on the notices read', async () => {
    const first = await notice(phone, 'morning tea');
    const second = await notice(phone, 'evening tea');
    expect(await pulledSeen(tablet)).toEqual([]);
    // The phone's centre records the newest notice it showed, through its outbox.
    const pushed = await server.call(
      '/api/sync/push',
      { clientId: 'phone', mutations: [{ id: 'p-1', name: '/api/notice/seen', args: { id: second } }] },
      phone,
    );
    expect(pushed.data.results[0]?.code).toBe(0);
    // The tablet pulls the same state: nothing is unread there either.
    expect(await pulledSeen(tablet)).toEqual([second]);
    // The tablet had looked earlier (its queued write arrives late): the newest stays.
    const late = await server.call('/api/notice/seen', { id: first }, tablet);
    expect(late).toMatchObject({ code: 0, data: { id: phone.id, seen: second } });
    expect(await pulledSeen(phone)).toEqual([second]);
    // Another member's notice is refused, changing nothing.
    const bobs = await notice(bob, 'bob tea');
    expect((await server.call('/api/notice/seen', { id: bobs }, tablet)).code).toBe(6206);
    expect((await server.call('/api/notice/seen', { id: 'x' }, tablet)).code).toBe(400);
    expect(await pulledSeen(bob)).toEqual([]);
  });

  it('racing writes from both sessions end on the newest id', async () => {
    const ids: string[] = [];
    for (const phrase of ['one cup', 'two cups', 'three cups', 'four cups'])
      ids.push(await notice(phone, phrase));
    const answers = await Promise.all(
      ids.flatMap((id, i) => [
        server.call('/api/notice/seen', { id }, i % 2 === 0 ? phone : tablet),
        server.call('/api/notice/seen', { id: ids[ids.length - 1 - i]! }, i % 2 === 0 ? tablet : phone),
      ]),
    );
    expect(answers.map((a) => a.code)).toEqual(answers.map(() => 0));
    const newest = ids[ids.length - 1]!;
    expect(await pulledSeen(phone)).toEqual([newest]);
    expect(await pulledSeen(tablet)).toEqual([newest]);
    const rows = (await server.engine.diagnostics.snapshot())['noticeReads'] as Array<{ seen: string }>;
    expect(rows.map((r) => r.seen)).toEqual([newest]);
  });
});
