/**
 * Issue 12 item 0: no simulated counterparty outside demo mode. A live engine (demo false, manual clock) is
 * driven through every route that could create money, then settled far into the future: no member balance
 * and no outside-world account moves until an operator decides or a chain gateway reports a confirmed
 * deposit (engine/operations.ts). The same calls on a demo engine keep today's simulated behaviour.
 */
import { describe, expect, it } from 'vitest';
import { resolveCounterparties, type PaymentProvider } from './counterparties';
import { liveMember, openLive, type LiveEngine, type LiveSession } from '../tests/engine/live';

const DAY = 86_400_000;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
/** A valid TRON address outside the platform (the USDT contract). */
const OUTSIDE_TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

type Live = LiveEngine;
type Session = LiveSession;
const open = (demo: boolean, payments?: PaymentProvider) => openLive(5, { demo, payments });
const member = liveMember;
const login = async (l: Live, username: string): Promise<Session> => {
  const r = await l.call('/api/index/login', { username, password: 'secret1' });
  const user = JSON.parse(r.data) as { id: string; token: string };
  return { id: String(user.id), headers: { Authorization: user.token, UserId: String(user.id) } };
};

async function upload(l: Live, s: Session): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'proof.png');
  const r = await l.call('/api/Recharges/uploads', form, s);
  expect(r.code).toBe(0);
  return r.data.url;
}

/** Every non-zero balance, by "account|asset" (the journal recomputed). */
async function balances(l: Live): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of await l.engine.diagnostics.rebuildBalances()) if (v !== 0n) out[k] = v.toString();
  return out;
}

async function cash(l: Live, s: Session): Promise<{ available: string; frozen: string }> {
  const u = (await l.call('/api/user/getuser', undefined, s)).data;
  return { available: u.available, frozen: u.frozen };
}

describe('counterparties are resolved once from the demo flag', () => {
  it('B1 demo: simulated reviewer, payments and chain; live: none, unless a payment provider is given', () => {
    const demo = resolveCounterparties({ demo: true });
    expect(demo.mode).toBe('demo');
    expect(demo.reviewer).not.toBeNull();
    expect(demo.payments?.name).toBe('demo');
    expect(demo.chain).not.toBeNull();
    expect(resolveCounterparties({ demo: false })).toEqual({
      mode: 'live',
      reviewer: null,
      payments: null,
      chain: null,
      market: null,
    });
    const provider: PaymentProvider = {
      name: 'acme',
      charge: async () => ({ status: 'declined', reason: 'x' }),
    };
    expect(resolveCounterparties({ demo: false }, { payments: provider }).payments).toBe(provider);
    expect(resolveCounterparties({ demo: true }, { payments: provider }).payments?.name).toBe('demo');
  });
});

describe('live mode: no balance changes without an operator or a confirmed chain deposit', () => {
  it('B1 drives every money-creating route, settles 400 days on, and nothing was created', async () => {
    const l = await open(false);
    let alice = await member(l, 'alice');
    const site = (await l.engine.handle({ method: 'GET', path: '/api/site/getsite', headers: {} })).body;
    expect(site.data).toMatchObject({ demo: false, quickBuy: false });

    // Quick buy: off without a payment provider, quote and buy alike.
    for (const path of ['/api/buycoin/quote', '/api/buycoin/buy']) {
      expect(await l.callRaw(path, { amount: '50000', currency: 'USD' }, alice)).toMatchObject({
        code: 403,
        msg: 'Quick buy is not available',
      });
    }
    // Manual deposits with a made-up hash and with a proof: accepted for review, pending.
    const byHash = await l.call(
      '/api/recharge/submit',
      { network: 'TRC20', amount: '999999', txid: 'ab'.repeat(32) },
      alice,
    );
    expect(byHash).toMatchObject({ code: 0, data: { status: 'pending' } });
    const proof = await upload(l, alice);
    const byProof = await l.call('/api/recharge/submit', { network: 'ERC20', amount: '5000', proof }, alice);
    expect(byProof).toMatchObject({ code: 0, data: { status: 'pending' } });
    // Identity check: under review.
    const front = await upload(l, alice);
    const cert = await l.call(
      '/api/user/cert',
      { realName: 'Alice Doe', idNumber: 'X1234567', frontImage: front, backImage: front },
      alice,
    );
    expect(cert).toMatchObject({ code: 0, data: { status: 'under review' } });
    // The demo chain does not exist.
    const address = (await l.call('/api/recharge/address', { network: 'TRC20' }, alice)).data;
    expect(
      (
        await l.call(
          '/api/demo/chain/send',
          { network: 'TRC20', address: address.address, amount: '1' },
          alice,
        )
      ).code,
    ).toBe(404);
    // The simulated market maker does not trade in live mode.
    expect(
      await l.call(
        '/api/order/place',
        { symbol: 'BTC/USDT', market: 'spot', side: 'buy', type: 'market', volume: '1' },
        alice,
      ),
    ).toMatchObject({ code: 403, msg: 'Trading is not available: no market is connected' });
    // Paid products need money the member does not have.
    expect((await l.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, alice)).code).not.toBe(0);
    // Every POST route with an empty body: none may create money either.
    for (const path of l.engine.diagnostics.paths()) {
      if (path.includes(':') || path.startsWith('/api/index/')) continue;
      await l.callRaw(path, {}, alice);
    }

    l.clock.advance(400 * DAY);
    await l.engine.settle();
    expect(await balances(l)).toEqual({});
    alice = await login(l, 'alice');
    const list = (await l.call('/api/recharge/list', {}, alice)).data;
    expect(list.list.map((d) => d.status)).toEqual(['pending', 'pending']);
    const me = (await l.call('/api/user/getuser', undefined, alice)).data;
    expect(JSON.stringify(me)).toContain('under review');
    expect(await l.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('B2 withdrawals wait for review however long; an operator completes with the real hash or rejects', async () => {
    const l = await open(false);
    let alice = await member(l, 'alice');
    const sub = await l.call(
      '/api/recharge/submit',
      { network: 'TRC20', amount: '300', txid: 'cd'.repeat(32) },
      alice,
    );
    // An operator (finance) credits it: the only way the manual deposit becomes money.
    expect(await l.engine.operations.creditDeposit(sub.data.id)).toBe(true);
    expect(await l.engine.operations.creditDeposit(sub.data.id)).toBe(false);
    expect(await cash(l, alice)).toEqual({ available: '300', frozen: '0' });

    const w1 = await l.call(
      '/api/withdraw/submit',
      { currency: 'USDT', network: 'TRC20', address: OUTSIDE_TRON, amount: '100', key: 'key1' },
      alice,
    );
    const w2 = await l.call(
      '/api/withdraw/submit',
      { currency: 'USDT', network: 'TRC20', address: OUTSIDE_TRON, amount: '50', key: 'key1' },
      alice,
    );
    expect(w1.code).toBe(911);
    l.clock.advance(400 * DAY);
    await l.engine.settle();
    alice = await login(l, 'alice');
    const pending = (await l.call('/api/withdraw/list', {}, alice)).data;
    expect(pending.list.map((w) => [w.status, w.txid])).toEqual([
      ['pending', null],
      ['pending', null],
    ]);
    expect(await cash(l, alice)).toEqual({ available: '150', frozen: '150' });
    expect(await balances(l)).toMatchObject({ 'world:TRC20|USDT': '-300000000' });

    const hash = 'ef'.repeat(32);
    const id1 = w1.data.id;
    const id2 = w2.data.id;
    expect(await l.engine.operations.completeWithdrawal(id1, hash)).toBe(true);
    expect(await l.engine.operations.completeWithdrawal(id1, hash)).toBe(false);
    await expect(l.engine.operations.rejectWithdrawal(id2, '  ')).rejects.toThrow(/reason/);
    expect(await l.engine.operations.rejectWithdrawal(id2, 'Destination failed the travel-rule check')).toBe(
      true,
    );
    expect(await l.engine.operations.rejectWithdrawal(id2, 'again')).toBe(false);
    const done = (await l.call('/api/withdraw/list', {}, alice)).data;
    expect(done.list.map((w) => [w['status'], w['txid'] ?? null])).toEqual([
      ['rejected', null],
      ['success', hash],
    ]);
    expect(done.list[0]).toMatchObject({ reason: 'Destination failed the travel-rule check' });
    expect(await cash(l, alice)).toEqual({ available: '200', frozen: '0' });
    expect(await l.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('B2 identity checks and payment proofs are decided by an operator only', async () => {
    const l = await open(false);
    const alice = await member(l, 'alice');
    const proof = await upload(l, alice);
    const dep = await l.call('/api/recharge/submit', { network: 'TRC20', amount: '20', proof }, alice);
    const cert = await l.call(
      '/api/user/cert',
      { realName: 'Alice', idNumber: 'AB12345', frontImage: proof, backImage: proof },
      alice,
    );
    expect(await l.engine.operations.rejectDeposit(dep.data.id)).toBe(true);
    expect(await l.engine.operations.creditDeposit(dep.data.id)).toBe(false);
    expect(await balances(l)).toEqual({});
    expect(await l.engine.operations.decideCert(cert.data.id, true)).toBe(true);
    expect(await l.engine.operations.decideCert(cert.data.id, false)).toBe(false);
    const me = (await l.call('/api/user/getuser', undefined, alice)).data;
    expect(JSON.stringify(me)).toContain('passed');
  });

  it('B3 quick buy works live only through a configured payment provider, and a decline credits nothing', async () => {
    const charges: string[] = [];
    let answer: 'paid' | 'declined' = 'declined';
    const provider: PaymentProvider = {
      name: 'test-cards',
      charge: async (c) => {
        charges.push(`${c.orderId}:${c.currency}:${c.total}`);
        return answer === 'paid'
          ? { status: 'paid', reference: `r${charges.length}` }
          : { status: 'declined', reason: 'card refused' };
      },
    };
    const l = await open(false, provider);
    const alice = await member(l, 'alice');
    const site = (await l.engine.handle({ method: 'GET', path: '/api/site/getsite', headers: {} })).body;
    expect(site.data).toMatchObject({ demo: false, quickBuy: true });
    expect(await l.call('/api/buycoin/buy', { amount: '100', currency: 'USD' }, alice)).toMatchObject({
      code: 402,
      msg: 'Payment declined: card refused',
    });
    expect(await balances(l)).toEqual({});
    answer = 'paid';
    expect((await l.call('/api/buycoin/buy', { amount: '100', currency: 'USD' }, alice)).code).toBe(0);
    expect(await cash(l, alice)).toEqual({ available: '100', frozen: '0' });
    expect(charges).toHaveLength(2);
    expect(charges[1]).toMatch(/:USD:101\.5$/);
  });
});

describe('demo mode keeps the simulated counterparties', () => {
  it('B1 demo: quick buy pays at once; manual deposit, withdrawal and identity check are decided by the simulator', async () => {
    const l = await open(true);
    const alice = await member(l, 'alice');
    const site = (await l.engine.handle({ method: 'GET', path: '/api/site/getsite', headers: {} })).body;
    expect(site.data).toMatchObject({ demo: true, quickBuy: true });
    expect((await l.call('/api/buycoin/buy', { amount: '100', currency: 'USD' }, alice)).code).toBe(0);
    expect(
      (await l.call('/api/recharge/submit', { network: 'TRC20', amount: '50', txid: '12'.repeat(32) }, alice))
        .code,
    ).toBe(0);
    const proof = await upload(l, alice);
    await l.call(
      '/api/user/cert',
      { realName: 'Alice', idNumber: 'AB12345', frontImage: proof, backImage: proof },
      alice,
    );
    const w = await l.call(
      '/api/withdraw/submit',
      { currency: 'USDT', network: 'TRC20', address: OUTSIDE_TRON, amount: '20', key: 'key1' },
      alice,
    );
    expect(w.code).toBe(911);
    l.clock.advance(DAY);
    await l.engine.settle();
    expect(await cash(l, alice)).toEqual({ available: '130', frozen: '0' });
    const list = (await l.call('/api/withdraw/list', {}, alice)).data;
    expect(list.list[0]?.status).toBe('success');
    expect(list.list[0]?.txid).toMatch(/^[0-9a-f]{64}$/);
    const me = (await l.call('/api/user/getuser', undefined, alice)).data;
    expect(JSON.stringify(me)).toContain('passed');
    const order = await l.call(
      '/api/order/place',
      { symbol: 'BTC/USDT', market: 'spot', side: 'buy', type: 'market', volume: '0.0001' },
      alice,
    );
    expect(order.code).toBe(0);
  });
});
