import { describe, expect, it } from 'vitest';
import { fund, harness, login, signUp, user } from '../../tests/engine/harness';

describe('VIP levels (docs/RULES.md V1-V6)', () => {
  it('V1 getlist lists levels 0-6 with API.md deposits and limits, current level marked', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const data = (await h.call('/api/Viplist/getlist', undefined, alice)).data;
    expect(data.current).toBe('vip0');
    expect(data.list.map((l) => [l.level, l.deposit, l.dailyLimit, l.monthlyLimit])).toEqual([
      [0, '0', null, null],
      [1, '50', '500', '3000'],
      [2, '500', '5000', '50000'],
      [3, '2000', '20000', '200000'],
      [4, '10000', '100000', '1000000'],
      [5, '50000', '500000', '5000000'],
      [6, '200000', '2000000', '20000000'],
    ]);
    expect(data.list.filter((l) => l.current)).toHaveLength(1);
    expect((await h.call('/api/Viplist/getlist')).code).toBe(401);
  });

  it('V3 VIP1 is a 50 USDT trial fee, not frozen, valid 60 days, then back to vip0 with the message', async () => {
    const h = await harness();
    let alice = await signUp(h, 'alice');
    await fund(h, alice.id, '60');
    const r = await h.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, alice);
    expect(r).toMatchObject({
      code: 0,
      data: { vip: 'vip1', deposit: '50', expiresAt: Math.floor(h.clock.now() / 1000) + 60 * 86_400 },
    });
    expect(await user(h, alice)).toMatchObject({ vip: 'vip1', available: '10', frozen: '0', balance: '10' });
    expect((await h.call('/api/Viplist/refund', { level: 1 }, alice)).code).toBe(3009);
    h.clock.advance(60 * 86_400_000 - 1);
    await h.engine.settle();
    alice = await login(h, 'alice');
    expect(await user(h, alice)).toMatchObject({ vip: 'vip1' });
    const feed: unknown[] = [];
    h.engine.subscribe((m) => feed.push(m));
    h.clock.advance(1);
    await h.engine.settle();
    expect(await user(h, alice)).toMatchObject({ vip: 'vip0', vipExpiresAt: null, available: '10' });
    expect(feed).toContainEqual({
      type: 'vip',
      data: { memberId: alice.id, vip: 'vip0', message: expect.stringMatching(/VIP2 or above/) },
    });
    const list = (await h.call('/api/Viplist/getlist', undefined, alice)).data;
    expect(list.notice).toMatch(/upgrade to VIP2 or above/);
    const recs = (await h.call('/api/Viplist/records', {}, alice)).data;
    expect(recs.list.map((x) => x.type)).toEqual(['expire', 'trial']);
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('V4 VIP2+ freezes the deposit; an upgrade freezes only the difference', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    await fund(h, alice.id, '3000');
    expect((await h.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, alice)).data).toEqual({
      vip: 'vip2',
      deposit: '500',
    });
    expect(await user(h, alice)).toMatchObject({
      vip: 'vip2',
      available: '2500',
      frozen: '500',
      balance: '3000',
    });
    expect((await h.call('/api/Viplist/Buyvip', { level: 'vip3', key: 'key1' }, alice)).data).toEqual({
      vip: 'vip3',
      deposit: '2000',
    });
    expect(await user(h, alice)).toMatchObject({ vip: 'vip3', available: '1000', frozen: '2000' });
    const recs = (await h.call('/api/Viplist/records', {}, alice)).data;
    expect(recs.list.map((x) => [x.type, x.amount])).toEqual([
      ['upgrade', '1500'],
      ['buy', '500'],
    ]);
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('V2 buying the current or a lower level answers 4033; short cash 4011; wrong key 3007; locked 430', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    await fund(h, alice.id, '600');
    expect((await h.call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, alice)).code).toBe(4011);
    expect((await h.call('/api/Viplist/Buyvip', { level: 2, key: 'nope' }, alice)).code).toBe(3007);
    expect((await h.call('/api/Viplist/Buyvip', { level: 2, key: '' }, alice)).code).toBe(20041);
    expect((await h.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, alice)).code).toBe(0);
    expect((await h.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, alice)).code).toBe(4033);
    expect((await h.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, alice)).code).toBe(4033);
    for (const level of [0, 7, -1, '2.5', 'vip9', null]) {
      expect((await h.callRaw('/api/Viplist/Buyvip', { level, key: 'key1' }, alice)).code).toBe(400);
    }
    for (let i = 0; i < 5; i++) await h.call('/api/Viplist/Buyvip', { level: 3, key: 'bad' }, alice);
    expect((await h.call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, alice)).code).toBe(430);
    expect(await user(h, alice)).toMatchObject({ vip: 'vip2', available: '100', frozen: '500' });
  });

  it('V5 a refund releases the whole deposit at once and returns the member to vip0', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    await fund(h, alice.id, '2500');
    await h.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, alice);
    await h.call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, alice);
    expect((await h.call('/api/Viplist/refund', { level: 2 }, alice)).code).toBe(402);
    expect((await h.call('/api/Viplist/refund', { level: 3 }, alice)).data).toEqual({
      vip: 'vip0',
      refunded: '2000',
    });
    expect(await user(h, alice)).toMatchObject({ vip: 'vip0', available: '2500', frozen: '0' });
    expect((await h.call('/api/Viplist/refund', { level: 3 }, alice)).code).toBe(3009);
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('V3 upgrading from a VIP1 trial ends the trial and its expiry does nothing later', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    await fund(h, alice.id, '550');
    await h.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, alice);
    expect((await h.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, alice)).code).toBe(0);
    h.clock.advance(61 * 86_400_000);
    await h.engine.settle();
    expect(await user(h, await login(h, 'alice'))).toMatchObject({
      vip: 'vip2',
      available: '0',
      frozen: '500',
    });
  });
});
