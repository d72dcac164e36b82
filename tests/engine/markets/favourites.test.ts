/**
 * Favourite pairs (issue 26 item 3; API.md "Favourite pairs"): set and unset idempotently, listed in the
 * order they were starred, per member, refused for an unknown pair or a malformed body without writing, replayed
 * through /api/sync/push at most once, and synced to the member's devices (an unset pair is a delete).
 */
import { describe, expect, it } from 'vitest';
import { harness, signUp, type Harness, type Session } from '../harness';

async function list(h: Harness, s: Session): Promise<string[]> {
  const r = await h.call('/api/market/favourites', undefined, s);
  expect(r.code).toBe(0);
  return r.data.list.map((f) => f.symbol);
}

const set = (h: Harness, s: Session, symbol: string, favourite: boolean) =>
  h.call('/api/market/favourite', { symbol, favourite }, s);

describe('favourite pairs', () => {
  it('sets and unsets a pair idempotently, lists them in the order starred, per member', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    expect(await list(h, alice)).toEqual([]);
    expect(await set(h, alice, 'ETH/USDT', true)).toMatchObject({
      code: 0,
      data: { symbol: 'ETH/USDT', favourite: true },
    });
    h.clock.advance(1000);
    expect((await set(h, alice, 'BTC/USDT', true)).code).toBe(0);
    // Setting the state a pair already has changes nothing (a replay, a second tap on another device).
    h.clock.advance(1000);
    expect((await set(h, alice, 'ETH/USDT', true)).code).toBe(0);
    expect(await list(h, alice)).toEqual(['ETH/USDT', 'BTC/USDT']);
    expect(await list(h, bob)).toEqual([]);
    expect((await set(h, alice, 'ETH/USDT', false)).code).toBe(0);
    expect((await set(h, alice, 'ETH/USDT', false)).code).toBe(0);
    expect(await list(h, alice)).toEqual(['BTC/USDT']);
  });

  it('refuses an unknown pair, a malformed body and a guest, writing nothing', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    expect((await set(h, alice, 'NOPE/USDT', true)).code).toBe(400);
    expect(
      (await h.callRaw('/api/market/favourite', { symbol: 'BTC/USDT', favourite: 'yes' }, alice)).code,
    ).toBe(400);
    expect((await h.callRaw('/api/market/favourite', { symbol: 'BTC/USDT' }, alice)).code).toBe(400);
    expect((await h.call('/api/market/favourite', { symbol: 'BTC/USDT', favourite: true })).code).toBe(401);
    expect(await list(h, alice)).toEqual([]);
  });

  it('replays through the outbox at most once and syncs to the devices; an unset pair is a delete', async () => {
    const h = await harness();
    const s = await signUp(h, 'alice');
    const push = (id: string, favourite: boolean) =>
      h.call(
        '/api/sync/push',
        {
          clientId: 'device-1',
          mutations: [{ id, name: '/api/market/favourite', args: { symbol: 'SOL/USDT', favourite } }],
        },
        s,
      );
    const first = await push('m-1', true);
    expect(first.code).toBe(0);
    expect(first.data.results[0]?.code).toBe(0);
    const pulled = (await h.call('/api/sync/pull', {}, s)).data;
    const rows = pulled.changes.filter((c) => c.table === 'favourites');
    expect(rows.map((c) => c.record)).toEqual([
      { id: `${s.id}:SOL/USDT`, symbol: 'SOL/USDT', time: expect.any(Number) as number },
    ]);
    expect((await push('m-2', false)).code).toBe(0);
    // The first mutation sent again answers its first answer and applies nothing: the pair stays unset.
    await push('m-1', true);
    expect(await list(h, s)).toEqual([]);
    const next = (await h.call('/api/sync/pull', { cursor: pulled.cursor }, s)).data;
    expect(next.changes.filter((c) => c.table === 'favourites').map((c) => c.op)).toEqual(['delete']);
  });
});
