/**
 * The withdrawal address book and the money-out checks (docs/RULES.md W7-W13, T8): saving, the whitelist and
 * its hold, the platform's own addresses, the second factor on every change, and the transfer recipient's
 * preview. Every code of 6121-6127 is reached here.
 */
import { describe, expect, it } from 'vitest';
import type { BodyOf, WireNetwork } from '../../../engine/contract';
import { fund, harness, signUp, user, type Harness, type Session } from '../harness';
import { enableTwoFactor, memberOn, nextCode, securityHarness } from './kit';

const TRC = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const HOUR = 3_600_000;

const withdrawal = (
  address: string,
  extra: Partial<BodyOf<'/api/withdraw/submit'>> = {},
): BodyOf<'/api/withdraw/submit'> => ({
  currency: 'USDT',
  network: 'TRC20',
  address,
  amount: '20',
  key: 'key1',
  ...extra,
});

async function book(h: Harness, s: Session) {
  const r = await h.call('/api/addressbook/list', undefined, s);
  expect(r.code).toBe(0);
  return r.data;
}

async function depositAddress(h: Harness, s: Session, network: WireNetwork = 'TRC20'): Promise<string> {
  return (await h.call('/api/recharge/address', { network }, s)).data.address;
}

async function funds(h: Harness, s: Session) {
  const u = await user(h, s);
  return { available: u['available'], frozen: u['frozen'] };
}

describe('W7 saving addresses', () => {
  it('W7 saves per network with a label, newest first, canonical form; 420/421/6121/6122/6123 write nothing', async () => {
    const h = await harness({ config: { addressBookLimit: 3 } });
    const s = await signUp(h, 'alice');
    const added = await h.call(
      '/api/addressbook/add',
      { network: 'TRC20', address: TRC, label: ' Cold wallet ' },
      s,
    );
    expect(added.code).toBe(0);
    expect(added.data).toMatchObject({ network: 'TRC20', address: TRC, label: 'Cold wallet' });
    const lower = ETH.toLowerCase();
    h.clock.advance(1000);
    const eth = await h.call(
      '/api/addressbook/add',
      { network: 'ERC20', address: lower, label: 'Ledger' },
      s,
    );
    expect(eth.code).toBe(0);
    expect(eth.data.address).toBe(ETH);

    const bad = [
      [{ network: 'TRC20', address: 'Tnope', label: 'x' }, 420],
      [{ network: 'TRC20', address: ETH, label: 'x' }, 421],
      [{ network: 'TRC20', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', label: '   ' }, 6121],
      [{ network: 'TRC20', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', label: 'x'.repeat(41) }, 6121],
      [{ network: 'TRC20', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', label: 'a\u0007b' }, 6121],
      [{ network: 'ERC20', address: ETH, label: 'again' }, 6122],
      [{ network: 'TRC20', address: TRC, label: 'again' }, 6122],
      [{ network: 'TRC20', address: TRC, label: 'x', extra: 1 }, 400],
    ] as const;
    // Refusals, the last one outside the contract's body (an extra field): sent unchecked.
    for (const [body, code] of bad)
      expect((await h.callRaw('/api/addressbook/add', body, s)).code, JSON.stringify(body)).toBe(code);
    const dup = await h.call('/api/addressbook/add', { network: 'ERC20', address: ETH, label: 'again' }, s);
    expect(dup.data).toEqual({ id: eth.data.id });

    const listed = await book(h, s);
    expect(listed.list.map((e) => e.label)).toEqual(['Ledger', 'Cold wallet']);
    expect(listed.holdSeconds).toBe(86_400);

    expect(
      (
        await h.call(
          '/api/addressbook/add',
          { network: 'TRC20', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', label: 'Third' },
          s,
        )
      ).code,
    ).toBe(0);
    const full = await h.call(
      '/api/addressbook/add',
      { network: 'ERC20', address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', label: 'Fourth' },
      s,
    );
    expect(full).toMatchObject({ code: 6123, data: { limit: 3 } });
    expect((await book(h, s)).list).toHaveLength(3);
  });

  it('W8 removes only the member’s own entries (6125 otherwise); another member never sees them', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    const added = await h.call(
      '/api/addressbook/add',
      { network: 'TRC20', address: TRC, label: 'Mine' },
      alice,
    );
    const id = added.data.id;
    expect((await book(h, bob)).list).toEqual([]);
    expect((await h.call('/api/addressbook/remove', { id }, bob)).code).toBe(6125);
    expect((await h.call('/api/addressbook/remove', { id: '999' }, alice)).code).toBe(6125);
    expect((await h.call('/api/addressbook/remove', { id }, alice)).code).toBe(0);
    expect((await book(h, alice)).list).toEqual([]);
    expect((await h.call('/api/addressbook/remove', { id }, alice)).code).toBe(6125);
  });
});

describe('W9 the platform’s own deposit addresses', () => {
  it('W9 the member’s own deposit address is refused as a withdrawal (6124, nothing frozen) and as a saved address', async () => {
    const h = await harness();
    const s = await signUp(h, 'alice');
    await fund(h, s.id, '100');
    const own = await depositAddress(h, s);
    const ownErc = await depositAddress(h, s, 'ERC20');
    const before = await funds(h, s);
    expect((await h.call('/api/withdraw/submit', withdrawal(own), s)).code).toBe(6124);
    expect(
      (await h.call('/api/withdraw/submit', withdrawal(ownErc.toLowerCase(), { network: 'ERC20' }), s)).code,
    ).toBe(6124);
    expect(await funds(h, s)).toEqual(before);
    expect((await h.call('/api/withdraw/list', {}, s)).data).toMatchObject({ total: 0 });
    expect(
      (await h.call('/api/addressbook/add', { network: 'TRC20', address: own, label: 'me' }, s)).code,
    ).toBe(6124);
  });

  it('W9 check tells the form what an address is: own, another member’s, the platform’s wallet, saved or not', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    const site = (await h.get('/api/site/getsite')).data;
    const check = async (network: WireNetwork, address: string) =>
      (await h.call('/api/addressbook/check', { network, address }, alice)).data;
    expect(await check('TRC20', await depositAddress(h, alice))).toMatchObject({ kind: 'own', saved: null });
    expect(await check('TRC20', await depositAddress(h, bob))).toMatchObject({ kind: 'member' });
    expect(await check('TRC20', site.walletAddress)).toMatchObject({ kind: 'platform' });
    expect(await check('ERC20', site.ercAddress.toLowerCase())).toMatchObject({
      kind: 'platform',
      address: site.ercAddress,
    });
    expect(await check('TRC20', TRC)).toMatchObject({ kind: null, saved: null, whitelist: false });
    await h.call('/api/addressbook/add', { network: 'TRC20', address: TRC, label: 'Cold' }, alice);
    expect(await check('TRC20', TRC)).toMatchObject({ kind: null, saved: { label: 'Cold' }, refusal: null });
    expect(await check('TRC20', await depositAddress(h, alice))).toMatchObject({ refusal: 6124 });
    await h.call('/api/addressbook/whitelist', { on: true }, alice);
    expect(await check('TRC20', TRC)).toMatchObject({ whitelist: true, refusal: 6127 });
    expect(await check('TRC20', site.walletAddress)).toMatchObject({ refusal: 6126 });
    h.clock.advance(86_400_000);
    expect(await check('TRC20', TRC)).toMatchObject({ refusal: null });
    await h.call('/api/addressbook/whitelist', { on: false }, alice);
    expect((await h.call('/api/addressbook/check', { network: 'TRC20', address: 'nope' }, alice)).code).toBe(
      420,
    );
    // Another member's address stays a warning, not a refusal: it arrives as their deposit (D6).
    await fund(h, alice.id, '100');
    expect((await h.call('/api/withdraw/submit', withdrawal(await depositAddress(h, bob)), alice)).code).toBe(
      911,
    );
  });
});

describe('W10 the whitelist and the hold', () => {
  it('W10 with the whitelist on, only saved addresses past their hold: 6126, then 6127 with usableAt, then 911', async () => {
    const h = await harness();
    const s = await signUp(h, 'alice');
    await fund(h, s.id, '100');
    // Off (the default): any valid address, saved or not, as before.
    expect((await h.call('/api/withdraw/submit', withdrawal(TRC), s)).code).toBe(911);
    expect(await h.call('/api/addressbook/whitelist', { on: true }, s)).toMatchObject({
      code: 0,
      data: { whitelist: true },
    });
    expect((await book(h, s)).whitelist).toBe(true);
    const before = await funds(h, s);
    expect(await h.call('/api/withdraw/submit', withdrawal(TRC), s)).toMatchObject({
      code: 6126,
      data: { network: 'TRC20' },
    });
    const added = await h.call('/api/addressbook/add', { network: 'TRC20', address: TRC, label: 'Cold' }, s);
    const usableAt = added.data.usableAt;
    expect(usableAt).toBe(Math.floor(h.clock.now() / 1000) + 86_400);
    const held = await h.call('/api/withdraw/submit', withdrawal(TRC), s);
    expect(held).toMatchObject({ code: 6127, data: { usableAt } });
    // Saved for TRC20 only: the same bytes on another network are another entry.
    expect(await funds(h, s)).toEqual(before);
    h.clock.advance(23 * HOUR);
    expect((await h.call('/api/withdraw/submit', withdrawal(TRC), s)).code).toBe(6127);
    h.clock.advance(HOUR);
    expect((await h.call('/api/withdraw/submit', withdrawal(TRC), s)).code).toBe(911);
    // Off again: an unsaved address goes at once.
    expect((await h.call('/api/addressbook/whitelist', { on: false }, s)).code).toBe(0);
    expect(
      (await h.call('/api/withdraw/submit', withdrawal('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'), s)).code,
    ).toBe(911);
  });

  it('W10 the hold is the engine’s addressHoldMs; the whitelist checks come before the security key', async () => {
    const h = await harness({ config: { addressHoldMs: 60_000 } });
    const s = await signUp(h, 'alice');
    await fund(h, s.id, '100');
    await h.call('/api/addressbook/whitelist', { on: true }, s);
    await h.call('/api/addressbook/add', { network: 'TRC20', address: TRC, label: 'Cold' }, s);
    // A wrong key is not counted against a withdrawal the whitelist refuses anyway.
    expect((await h.call('/api/withdraw/submit', withdrawal(TRC, { key: 'wrong' }), s)).code).toBe(6127);
    h.clock.advance(60_000);
    expect((await h.call('/api/withdraw/submit', withdrawal(TRC, { key: 'wrong' }), s)).code).toBe(3007);
    expect((await h.call('/api/withdraw/submit', withdrawal(TRC), s)).code).toBe(911);
  });
});

describe('W11 address book changes need the second factor', () => {
  it('W11 with two-factor on, add, remove and the whitelist answer 6101 without a code and change nothing', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'alice');
    const added = await h.call('/api/addressbook/add', { network: 'TRC20', address: TRC, label: 'Cold' }, s);
    const id = added.data.id;
    const { secret } = await enableTwoFactor(h, s);
    const add = { network: 'ERC20', address: ETH, label: 'Ledger' } as const;
    expect(await h.call('/api/addressbook/add', add, s)).toMatchObject({
      code: 6101,
      data: { action: 'addressBook' },
    });
    expect((await h.call('/api/addressbook/remove', { id }, s)).code).toBe(6101);
    expect((await h.call('/api/addressbook/whitelist', { on: true }, s)).code).toBe(6101);
    expect((await h.call('/api/addressbook/whitelist', { on: true, code: '000000' }, s)).code).toBe(6102);
    const listed = await book(h, s);
    expect(listed.whitelist).toBe(false);
    expect(listed.list).toHaveLength(1);
    expect((await h.call('/api/addressbook/add', { ...add, code: await nextCode(h, secret) }, s)).code).toBe(
      0,
    );
    expect((await h.call('/api/addressbook/remove', { id, code: await nextCode(h, secret) }, s)).code).toBe(
      0,
    );
    expect(
      (await h.call('/api/addressbook/whitelist', { on: true, code: await nextCode(h, secret) }, s)).code,
    ).toBe(0);
    const after = await book(h, s);
    expect(after.whitelist).toBe(true);
    expect(after.list.map((e) => e.label)).toEqual(['Ledger']);
    // The check and the list are reads: no code.
    expect((await h.call('/api/addressbook/check', { network: 'TRC20', address: TRC }, s)).code).toBe(0);
  });
});

describe('W12 the address book syncs to the member’s devices', () => {
  it('W12 saved addresses and the whitelist setting are pulled; a removed address is a delete', async () => {
    const h = await harness();
    const s = await signUp(h, 'alice');
    const added = await h.call('/api/addressbook/add', { network: 'TRC20', address: TRC, label: 'Cold' }, s);
    await h.call('/api/addressbook/whitelist', { on: true }, s);
    const first = (await h.call('/api/sync/pull', {}, s)).data;
    expect(first.changes.filter((c) => c.table === 'savedAddresses').map((c) => c.record)).toEqual([
      added.data,
    ]);
    expect(first.changes.filter((c) => c.table === 'addressBookSettings').map((c) => c.record)).toEqual([
      { id: s.id, whitelist: true },
    ]);
    await h.call('/api/addressbook/remove', { id: added.data.id }, s);
    const next = (await h.call('/api/sync/pull', { cursor: first.cursor }, s)).data;
    expect(next.changes.filter((c) => c.table === 'savedAddresses').map((c) => c.op)).toEqual(['delete']);
  });
});

describe('T8 the transfer recipient’s preview', () => {
  it('T8 answers the masked name and level in force, the transfer’s codes otherwise, and counts every look-up (429)', async () => {
    const h = await harness({ config: { recipientLookupLimit: 5 } });
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bobby123');
    await signUp(h, 'carol');
    await fund(h, bob.id, '600');
    expect((await h.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, bob)).code).toBe(0);
    const preview = (account: string) => h.call('/api/transfer/recipient', { account }, alice);
    expect(await preview('BOBBY123')).toMatchObject({ code: 0, data: { name: 'bo***23', vip: 'vip2' } });
    expect(JSON.stringify((await preview('bobby123@example.com')).data)).not.toContain('bobby123');
    expect((await preview('nobody_here_xyz')).code).toBe(3000);
    expect((await preview('alice')).code).toBe(222);
    expect((await preview('carol')).code).toBe(3002);
    expect((await h.callRaw('/api/transfer/recipient', { account: 5 }, alice)).code).toBe(400);
    // Five counted (found or not, the malformed one aside): the sixth is refused, whoever it names.
    expect((await preview('bobby123')).code).toBe(429);
    expect((await preview('nobody_else')).code).toBe(429);
    // Another member has their own allowance; the window slides.
    expect((await h.call('/api/transfer/recipient', { account: 'alice' }, bob)).code).toBe(3002);
    h.clock.advance(15 * 60_000 + 1);
    expect((await preview('bobby123')).code).toBe(0);
    // Transfers still need no key.
    await fund(h, alice.id, '10');
    expect((await h.call('/api/transfer/submit', { account: 'bobby123', amount: '5' }, alice)).code).toBe(0);
  });
});
