import { describe, expect, it } from 'vitest';
import { fund, harness, login, signUp, user, type Harness, type Session } from '../../tests/engine/harness';

async function vip(h: Harness, s: Session, level: number): Promise<void> {
  const r = await h.call('/api/Viplist/Buyvip', { level, key: 'key1' }, s);
  if (r.code !== 0) throw new Error(`Buyvip ${level}: ${r.code} ${r.msg}`);
}

async function pair(h: Harness, recipientLevel = 1) {
  const alice = await signUp(h, 'alice', { phone: '+15550100' });
  const bob = await signUp(h, 'bob', { phone: '+15550200' });
  await fund(h, alice.id, '100000');
  if (recipientLevel > 0) {
    await fund(h, bob.id, '1000000');
    await vip(h, bob, recipientLevel);
  }
  return { alice, bob };
}

describe('internal transfers (docs/RULES.md T1-T7)', () => {
  it('T7 a transfer moves the amount in one balanced entry and is listed to both parties', async () => {
    const h = await harness();
    const { alice, bob } = await pair(h);
    const bobBefore = (await user(h, bob))['available'];
    const r = await h.call('/api/transfer/submit', { account: 'BOB', amount: '12.5' }, alice);
    expect(r.code).toBe(0);
    expect(r.data).toMatchObject({ direction: 'out', account: 'bob', amount: '12.5', status: 'success' });
    expect(await user(h, alice)).toMatchObject({ available: '99987.5' });
    expect(Number((await user(h, bob))['available']) - Number(bobBefore)).toBe(12.5);
    const inbox = (await h.call('/api/transfer/list', {}, bob)).data;
    expect(inbox.total).toBe(1);
    expect(inbox.list[0]).toMatchObject({ direction: 'in', account: 'alice', amount: '12.5' });
    expect((await h.call('/api/transfer/list', { direction: 'in' }, alice)).data).toMatchObject({ total: 0 });
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('T2 the recipient may be named by username, phone or e-mail; 3000 when nobody', async () => {
    const h = await harness();
    const { alice } = await pair(h);
    for (const account of ['bob', '+1 555 0200', 'BOB@example.com']) {
      expect((await h.call('/api/transfer/submit', { account, amount: '1' }, alice)).code).toBe(0);
    }
    expect((await h.call('/api/transfer/submit', { account: 'nobody', amount: '1' }, alice)).code).toBe(3000);
    expect((await h.call('/api/transfer/submit', { account: '', amount: '1' }, alice)).code).toBe(3000);
  });

  it('T2 a name that matches two members (a digits username equal to a phone) is an abnormal account: 3001', async () => {
    const h = await harness();
    const { alice } = await pair(h);
    const carol = await signUp(h, 'carol', { phone: '13800138000' });
    const twin = await signUp(h, '13800138000', { email: 'twin@example.com' });
    for (const s of [carol, twin]) {
      await fund(h, s.id, '100');
      await vip(h, s, 1);
    }
    const send = (account: string) => h.call('/api/transfer/submit', { account, amount: '1' }, alice);
    expect((await send('13800138000')).code).toBe(3001);
    expect((await send('carol')).code).toBe(0);
    expect((await send('twin@example.com')).code).toBe(0);
  });

  it('T1 the amount is at least 1 (3006); malformed amounts answer 400', async () => {
    const h = await harness();
    const { alice } = await pair(h);
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '0.999999' }, alice)).code).toBe(
      3006,
    );
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '0' }, alice)).code).toBe(3006);
    const unchecked = (body: unknown) => h.callRaw('/api/transfer/submit', body, alice);
    for (const amount of ['-5', '1e2', 5, '1.0000001', '', '99999999999999999999', null]) {
      expect((await unchecked({ account: 'bob', amount })).code).toBe(400);
    }
    expect((await unchecked({ account: 'bob' })).code).toBe(400);
    expect((await unchecked({ account: 'bob', amount: '1', key: 'key1' })).code).toBe(400);
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '1' })).code).toBe(401);
  });

  it('T3 a member cannot transfer to themself: 222', async () => {
    const h = await harness();
    const { bob } = await pair(h);
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '1' }, bob)).code).toBe(222);
  });

  it('T4 the recipient must hold VIP1 or above (3002), and an expired trial counts as vip0', async () => {
    const h = await harness();
    const { alice, bob } = await pair(h, 0);
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '1' }, alice)).code).toBe(3002);
    // vip0 may still send
    await fund(h, bob.id, '100');
    await vip(h, alice, 1);
    expect((await h.call('/api/transfer/submit', { account: 'alice', amount: '1' }, bob)).code).toBe(0);
    h.clock.advance(60 * 86_400_000);
    expect(
      (await h.call('/api/transfer/submit', { account: 'alice', amount: '1' }, await login(h, 'bob'))).code,
    ).toBe(3002);
  });

  it('T5 VIP1 receives at most 500 a UTC day (3003) and 3,000 a month (3004)', async () => {
    const h = await harness();
    const { alice } = await pair(h, 1);
    const send = (amount: string) => h.call('/api/transfer/submit', { account: 'bob', amount }, alice);
    expect((await send('400')).code).toBe(0);
    expect((await send('100.000001')).code).toBe(3003);
    expect((await send('100')).code).toBe(0);
    expect((await send('1')).code).toBe(3003);
    for (let day = 1; day <= 5; day++) {
      h.clock.advance(86_400_000);
      expect((await send('500')).code).toBe(0);
    }
    h.clock.advance(86_400_000);
    expect((await send('1')).code).toBe(3004);
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('T5 limits grow with the level: VIP2 receives 5,000 a day', async () => {
    const h = await harness();
    const { alice } = await pair(h, 2);
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '5000' }, alice)).code).toBe(0);
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '1' }, alice)).code).toBe(3003);
  });

  it('T6 the sender needs the available amount (3005) and no security key; nothing moves on failure', async () => {
    const h = await harness();
    const { alice } = await pair(h, 2);
    const carol = await signUp(h, 'carol');
    await fund(h, carol.id, '10');
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '10.000001' }, carol)).code).toBe(
      3005,
    );
    expect(await user(h, carol)).toMatchObject({ available: '10' });
    expect((await h.call('/api/transfer/list', {}, carol)).data).toMatchObject({ total: 0 });
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '10' }, carol)).code).toBe(0);
    expect(await user(h, carol)).toMatchObject({ available: '0' });
    void alice;
  });
});
