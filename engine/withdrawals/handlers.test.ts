import { describe, expect, it } from 'vitest';
import type { BodyOf, FeedMessage } from '../index';
import { fund, harness, login, signUp, user, type Harness, type Session } from '../../tests/engine/harness';

const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BURN = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';

type Submission = BodyOf<'/api/withdraw/submit'>;

function withdraw(h: Harness, s: Session, extra: Partial<Submission> = {}) {
  const body: Submission = { currency: 'USDT', network: 'TRC20', address: TRON, amount: '50', key: 'key1' };
  return h.call('/api/withdraw/submit', { ...body, ...extra }, s);
}

/** A submission with fields the contract refuses (malformed or extra), sent unchecked. */
function withdrawUnchecked(h: Harness, s: Session, extra: Record<string, unknown>) {
  const body: Submission = { currency: 'USDT', network: 'TRC20', address: TRON, amount: '50', key: 'key1' };
  return h.callRaw('/api/withdraw/submit', { ...body, ...extra }, s);
}

async function member(h: Harness, s: Session) {
  const u = await user(h, s);
  return { available: u['available'], frozen: u['frozen'] };
}

async function records(h: Harness, s: Session, body: BodyOf<'/api/withdraw/list'> = {}) {
  const r = await h.call('/api/withdraw/list', body, s);
  expect(r.code).toBe(0);
  return r.data;
}

async function funded(h: Harness, name = 'alice', amount = '100'): Promise<Session> {
  const s = await signUp(h, name);
  await fund(h, s.id, amount);
  return s;
}

async function balanceOf(h: Harness, account: string): Promise<bigint> {
  return (await h.engine.diagnostics.rebuildBalances()).get(`${account}|USDT`) ?? 0n;
}

describe('W1 the fee quote', () => {
  it('W1 answers fee, received = amount - fee and the minimum per network', async () => {
    const h = await harness();
    const s = await signUp(h, 'alice');
    expect((await h.call('/api/withdraw/fee', { network: 'TRC20', amount: '25.5' }, s)).data).toEqual({
      fee: '1',
      received: '24.5',
      minimum: '10',
    });
    expect((await h.call('/api/withdraw/fee', { network: 'ERC20', amount: '10' }, s)).data).toEqual({
      fee: '5',
      received: '5',
      minimum: '10',
    });
    expect((await h.call('/api/withdraw/fee', { network: 'ERC20', amount: '2' }, s)).data).toMatchObject({
      received: '0',
    });
    for (const bad of [
      { network: 'BTC', amount: '1' },
      { network: 'TRC20', amount: 1 },
      { network: 'TRC20' },
    ]) {
      expect((await h.callRaw('/api/withdraw/fee', bad, s)).code).toBe(400);
    }
  });
});

describe('W2 submission is checked in order, each failure with its code and nothing written', () => {
  it('W2 schema errors answer 400: extra fields, wrong currency, malformed amounts, missing key', async () => {
    const h = await harness();
    const s = await funded(h);
    for (const extra of [
      { memo: 'x' },
      { currency: 'BTC' },
      { network: 'trc20' },
      { amount: 50 },
      { amount: '-50' },
      { amount: '1e3' },
      { amount: '50.0000001' },
      { amount: '9999999999999999' },
      { key: undefined },
      { address: 42 },
    ]) {
      expect((await withdrawUnchecked(h, s, extra)).code).toBe(400);
    }
    expect((await h.callRaw('/api/withdraw/submit', '{"currency":', s)).code).toBe(400);
    expect(await member(h, s)).toEqual({ available: '100', frozen: '0' });
  });

  it('W2 below the minimum answers 410 with the minimum in msg', async () => {
    const h = await harness();
    const s = await funded(h);
    const r = await withdraw(h, s, { amount: '9.999999' });
    expect(r).toMatchObject({ code: 410, msg: '10 USDT', data: { minimum: '10' } });
    expect((await withdraw(h, s, { amount: '0' })).code).toBe(410);
    expect((await withdraw(h, s, { amount: '10' })).code).toBe(911);
  });

  it('W2 an invalid address answers 420 and an address of the other network 421', async () => {
    const h = await harness();
    const s = await funded(h);
    const typo = await withdraw(h, s, { address: TRON.slice(0, -1) + 'u' });
    expect(typo).toMatchObject({ code: 420, msg: expect.stringMatching(/checksum/) });
    expect((await withdraw(h, s, { address: '' })).code).toBe(420);
    expect((await withdraw(h, s, { network: 'ERC20', address: ETH.replace('a', 'A') })).code).toBe(420);
    const cross = await withdraw(h, s, { address: ETH });
    expect(cross).toMatchObject({ code: 421, data: { network: 'TRC20', detected: 'ERC20' } });
    expect(cross.msg).toMatch(/ERC-20/);
    expect((await withdraw(h, s, { network: 'ERC20', address: TRON })).code).toBe(421);
    expect(await member(h, s)).toEqual({ available: '100', frozen: '0' });
  });

  it('W2 the security key: empty 20041, wrong 3007, five wrong 430 even with the right key', async () => {
    const h = await harness();
    const s = await funded(h);
    expect((await withdraw(h, s, { key: '' })).code).toBe(20041);
    for (let i = 0; i < 4; i++) expect((await withdraw(h, s, { key: 'nope' })).code).toBe(3007);
    expect((await withdraw(h, s, { key: 'nope' })).code).toBe(430);
    expect((await withdraw(h, s)).code).toBe(430);
    expect(await member(h, s)).toEqual({ available: '100', frozen: '0' });
    expect(await records(h, s)).toMatchObject({ total: 0 });
  });

  it('W2 after a key reset withdrawals are held for 24 hours (431)', async () => {
    const h = await harness();
    await funded(h);
    const reset = await h.call('/api/index/forgetKey', {
      username: 'alice',
      password: 'secret1',
      answer: 'Rex',
      key: 'key2',
      rekey: 'key2',
    });
    expect(reset.code).toBe(0);
    const s = await login(h, 'alice');
    expect((await withdraw(h, s, { key: 'key2' })).code).toBe(431);
    h.clock.advance(24 * 3_600_000);
    expect((await withdraw(h, s, { key: 'key2' })).code).toBe(911);
  });

  it('W2 more than the available balance answers 4011; frozen money is not available', async () => {
    const h = await harness();
    const s = await funded(h);
    expect((await withdraw(h, s, { amount: '100.000001' })).code).toBe(4011);
    expect((await withdraw(h, s, { amount: '60' })).code).toBe(911);
    expect((await withdraw(h, s, { amount: '40.000001' })).code).toBe(4011);
    expect(await member(h, s)).toEqual({ available: '40', frozen: '60' });
  });
});

describe('W3 a submitted withdrawal is held and answered with 911', () => {
  it('W3 freezes the amount, answers the record, announces it', async () => {
    const h = await harness();
    const s = await funded(h);
    const feed: FeedMessage[] = [];
    h.engine.subscribe((m) => feed.push(m));
    const r = await withdraw(h, s, { network: 'ERC20', address: ETH.toLowerCase(), amount: '30' });
    expect(r.code).toBe(911);
    const record = r.data;
    expect(record).toMatchObject({
      currency: 'USDT',
      network: 'ERC20',
      address: ETH,
      amount: '30',
      fee: '5',
      received: '25',
      status: 'pending',
      txid: null,
      createdAt: Math.floor(h.clock.now() / 1000),
      reviewAt: Math.floor(h.clock.now() / 1000) + 60,
    });
    expect(await member(h, s)).toEqual({ available: '70', frozen: '30' });
    expect(feed).toContainEqual({
      type: 'withdrawal',
      data: { memberId: s.id, id: record.id, status: 'pending' },
    });
    expect(feed).toContainEqual({ type: 'balance', data: { memberId: s.id } });
  });
});

describe('W4 review sends it: the fee to the platform, the rest out to the network', () => {
  it('W4 after the review delay: success, a chain hash, frozen money gone, money conserved', async () => {
    const h = await harness();
    const s = await funded(h);
    const id = (await withdraw(h, s, { amount: '50' })).data.id;
    h.clock.advance(59_999);
    await h.engine.settle();
    expect((await records(h, s)).list[0]).toMatchObject({ status: 'pending' });
    h.clock.advance(1);
    await h.engine.settle();
    const [done] = (await records(h, s)).list;
    expect(done).toMatchObject({
      id,
      status: 'success',
      reason: null,
      finishedAt: Math.floor(h.clock.now() / 1000),
    });
    expect(done?.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await member(h, s)).toEqual({ available: '50', frozen: '0' });
    expect(await balanceOf(h, 'platform:fees')).toBe(1_000_000n);
    expect(await balanceOf(h, 'world:TRC20')).toBe(49_000_000n);
    expect(await balanceOf(h, 'platform:withdrawals-transit')).toBe(0n);
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });
});

describe('W5 review rejects deny-listed destinations and amounts over the limit; the hold is released once', () => {
  it('W5 a deny-listed address is rejected and the hold released exactly once', async () => {
    const h = await harness();
    const s = await funded(h);
    const feed: FeedMessage[] = [];
    h.engine.subscribe((m) => feed.push(m));
    const id = (await withdraw(h, s, { address: BURN, amount: '80' })).data.id;
    expect(await member(h, s)).toEqual({ available: '20', frozen: '80' });
    h.clock.advance(60_000);
    await h.engine.settle();
    expect((await records(h, s)).list[0]).toMatchObject({
      id,
      status: 'rejected',
      txid: null,
      reason: /deny-list/,
    });
    expect(await member(h, s)).toEqual({ available: '100', frozen: '0' });
    expect(feed).toContainEqual({ type: 'withdrawal', data: { memberId: s.id, id, status: 'rejected' } });
    h.clock.advance(86_400_000);
    await h.engine.settle();
    expect(await member(h, s)).toEqual({ available: '100', frozen: '0' });
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('W5 an amount above config.withdrawReviewLimit is rejected', async () => {
    const h = await harness({ config: { withdrawReviewLimit: '50' } });
    const s = await funded(h, 'alice', '200');
    await withdraw(h, s, { amount: '50' });
    await withdraw(h, s, { amount: '50.000001', network: 'ERC20', address: ETH });
    h.clock.advance(60_000);
    await h.engine.settle();
    expect((await records(h, s)).list.map((w) => w.status)).toEqual(['rejected', 'success']);
    expect(await member(h, s)).toEqual({ available: '150', frozen: '0' });
  });
});

describe('D6 a withdrawal sent to a member deposit address arrives as that member deposit', () => {
  it('D6 bob is credited received = amount - fee after the confirmations; money is conserved', async () => {
    const h = await harness();
    const alice = await funded(h);
    const bob = await signUp(h, 'bob');
    const bobAddress = (await h.call('/api/recharge/address', { network: 'TRC20' }, bob)).data.address;
    expect((await withdraw(h, alice, { address: bobAddress, amount: '30' })).code).toBe(911);
    h.clock.advance(60_000);
    await h.engine.settle();
    const sent = (await records(h, alice)).list[0];
    expect(sent).toMatchObject({ status: 'success' });
    const incoming = (await h.call('/api/recharge/list', {}, bob)).data;
    expect(incoming.list[0]).toMatchObject({ status: 'pending', amount: '29', txid: sent?.txid });
    h.clock.advance(19 * 3_000);
    await h.engine.settle();
    expect(await member(h, bob)).toEqual({ available: '29', frozen: '0' });
    expect(await member(h, alice)).toEqual({ available: '70', frozen: '0' });
    expect(await balanceOf(h, 'world:TRC20')).toBe(0n);
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });
});

describe('withdrawal records', () => {
  it('are listed newest first with API.md paging, and only to their owner', async () => {
    const h = await harness();
    const s = await funded(h);
    const bob = await signUp(h, 'bob');
    for (const amount of ['10', '11', '12']) expect((await withdraw(h, s, { amount })).code).toBe(911);
    expect((await records(h, s)).list.map((w) => w.amount)).toEqual(['12', '11', '10']);
    expect(await records(h, s, { page: 2, limit: 2 })).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect((await records(h, bob)).total).toBe(0);
    expect((await h.call('/api/withdraw/list', { page: 0 }, s)).code).toBe(400);
    expect((await h.call('/api/withdraw/list', {})).code).toBe(401);
  });
});
