import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { WatchOnlyBook, walletXpubFromSeed } from '../chain/addresses';
import type { BodyOf, FeedMessage, WireNetwork } from '../index';
import { harness, signUp, user, type Harness, type Session } from '../../tests/engine/harness';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function addressOf(h: Harness, s: Session, network: 'TRC20' | 'ERC20'): Promise<string> {
  const r = await h.call('/api/recharge/address', { network }, s);
  expect(r.code).toBe(0);
  return r.data.address;
}

async function send(h: Harness, s: Session, network: WireNetwork, address: string, amount: string) {
  return h.call('/api/demo/chain/send', { network, address, amount }, s);
}

async function deposits(h: Harness, s: Session, body: BodyOf<'/api/recharge/list'> = {}) {
  const r = await h.call('/api/recharge/list', body, s);
  expect(r.code).toBe(0);
  return r.data;
}

async function upload(h: Harness, s: Session): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'proof.png');
  const answer = await h.call('/api/Recharges/uploads', form, s);
  expect(answer.code).toBe(0);
  return answer.data.url;
}

describe('D1 each member has an exclusive deposit address per network', () => {
  it('D1 the address is stable, per member and per network, in each network format', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    const trc = await addressOf(h, alice, 'TRC20');
    expect(trc).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await addressOf(h, alice, 'TRC20')).toBe(trc);
    expect(await addressOf(h, alice, 'ERC20')).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await addressOf(h, bob, 'TRC20')).not.toBe(trc);
    const site = (await h.get('/api/site/getsite')).data;
    expect(site.walletAddress).toMatch(/^T/);
    expect(site.ercAddress).toMatch(/^0x/);
    expect([trc, await addressOf(h, bob, 'TRC20')]).not.toContain(site.walletAddress);
  });

  it('D1 the platform addresses are derived once per deposit key, and again for a new key', async () => {
    const platform = async (h: Harness) => {
      const site = (await h.get('/api/site/getsite')).data;
      return [site.walletAddress, site.ercAddress];
    };
    const derive = vi.spyOn(WatchOnlyBook.prototype, 'platform');
    try {
      const first = await harness({ storage: 'platform-once' });
      const demoAddresses = await platform(first);
      expect(derive).toHaveBeenCalledTimes(2);
      await first.engine.close();
      // Opened again on the same key: the stored addresses, no curve work.
      const again = await harness({ storage: 'platform-once' });
      expect(await platform(again)).toEqual(demoAddresses);
      expect(derive).toHaveBeenCalledTimes(2);
      await again.engine.close();
      // Opened on a real deposit key: that key's addresses, never the old ones.
      const xpub = walletXpubFromSeed(new Uint8Array(64).fill(3));
      const real = await harness({ storage: 'platform-once', config: { walletXpub: xpub } });
      const book = new WatchOnlyBook(xpub);
      expect(await platform(real)).toEqual([book.platform('TRC20'), book.platform('ERC20')]);
      expect(await platform(real)).not.toEqual(demoAddresses);
    } finally {
      derive.mockRestore();
    }
  });

  it('D1 a demo engine opens and answers the market without its deposit key; the first call that needs it makes it', async () => {
    const derive = vi.spyOn(WatchOnlyBook.prototype, 'member');
    const platform = vi.spyOn(WatchOnlyBook.prototype, 'platform');
    try {
      const h = await harness();
      const stored = async () =>
        ((await h.engine.diagnostics.snapshot())['meta'] as { id: string; value: string }[])
          .filter((row) => row.id.startsWith('chain.') || /^site\.(wallet|erc)Address$/.test(row.id))
          .map((row) => row.id)
          .sort();
      expect((await h.call('/api/market/list')).code).toBe(0);
      const alice = await signUp(h, 'alice');
      // No key made, no address derived: the derivation code has not been needed.
      expect(await stored()).toEqual([]);
      expect(platform).not.toHaveBeenCalled();
      const address = await addressOf(h, alice, 'TRC20');
      expect(await stored()).toEqual([
        'chain.platformXpub',
        'chain.walletKind',
        'chain.walletXpub',
        'site.ercAddress',
        'site.walletAddress',
      ]);
      expect(derive).toHaveBeenCalledTimes(1);
      // The key stays: the same address again, and the site publishes the platform's addresses of that key.
      expect(await addressOf(h, alice, 'TRC20')).toBe(address);
      const site = (await h.get('/api/site/getsite')).data;
      expect(site.walletAddress).toMatch(/^T/);
      expect(platform).toHaveBeenCalledTimes(2);
    } finally {
      derive.mockRestore();
      platform.mockRestore();
    }
  });

  it('D1 the same seed gives the same addresses on another engine', async () => {
    const a = await harness({ seed: 11 });
    const b = await harness({ seed: 11 });
    expect(await addressOf(a, await signUp(a, 'alice'), 'ERC20')).toBe(
      await addressOf(b, await signUp(b, 'alice'), 'ERC20'),
    );
  });

  it('refuses an unknown network (400) and a missing session (401)', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    expect((await h.callRaw('/api/recharge/address', { network: 'BTC' }, alice)).code).toBe(400);
    expect((await h.callRaw('/api/recharge/address', { network: 'TRC20', extra: 1 }, alice)).code).toBe(400);
    expect((await h.call('/api/recharge/address', { network: 'TRC20' })).code).toBe(401);
  });
});

describe('D2 a chain payment is credited once its confirmations are reached, exactly once', () => {
  it('D2 TRC20: pending with 0/19, credited at the 19th confirmation, feed deposit + balance', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const feed: FeedMessage[] = [];
    h.engine.subscribe((m) => feed.push(m));
    const address = await addressOf(h, alice, 'TRC20');
    const r = await send(h, alice, 'TRC20', address, '125.5');
    expect(r.code).toBe(0);
    const sent = r.data;
    expect(sent).toMatchObject({ network: 'TRC20', address, amount: '125.5', required: 19 });
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
    let [record] = (await deposits(h, alice)).list;
    expect(record).toMatchObject({
      status: 'pending',
      confirmations: 0,
      required: 19,
      type: 'chain',
      txid: sent.txid,
    });
    expect(feed).toContainEqual({
      type: 'deposit',
      data: { memberId: alice.id, id: record?.id, status: 'pending' },
    });

    h.clock.advance(sent.confirmAt * 1000 - h.clock.now() - 1);
    await h.engine.settle();
    [record] = (await deposits(h, alice)).list;
    expect(record).toMatchObject({ status: 'pending', confirmations: 18 });
    expect((await user(h, alice))['available']).toBe('0');

    h.clock.advance(1);
    await h.engine.settle();
    [record] = (await deposits(h, alice)).list;
    expect(record).toMatchObject({ status: 'success', confirmations: 19 });
    expect((await user(h, alice))['available']).toBe('125.5');
    expect(feed).toContainEqual({
      type: 'deposit',
      data: { memberId: alice.id, id: record?.id, status: 'success' },
    });
    expect(feed).toContainEqual({ type: 'balance', data: { memberId: alice.id } });

    h.clock.advance(3_600_000);
    await h.engine.settle();
    expect((await user(h, alice))['available']).toBe('125.5');
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('D2 ERC20 needs 12 confirmations of 12 s blocks and answers a 0x hash', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const address = await addressOf(h, alice, 'ERC20');
    const sent = (await send(h, alice, 'ERC20', address.toLowerCase(), '10')).data;
    expect(sent.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sent.address).toBe(address);
    expect(sent.required).toBe(12);
    h.clock.advance(11 * 12_000 - 12_000);
    await h.engine.settle();
    expect((await user(h, alice))['available']).toBe('0');
    h.clock.advance(24_000);
    await h.engine.settle();
    expect((await user(h, alice))['available']).toBe('10');
  });

  it('D4 a payment to an address nobody was given is accepted by the chain but credits nobody', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const r = await send(h, alice, 'TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '50');
    expect(r.code).toBe(0);
    h.clock.advance(3_600_000);
    await h.engine.settle();
    expect((await deposits(h, alice)).total).toBe(0);
    expect((await user(h, alice))['available']).toBe('0');
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('D5 demo chain: bad address 420, other network 421, bad amounts 400, demo off 404', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const trc = await addressOf(h, alice, 'TRC20');
    const erc = await addressOf(h, alice, 'ERC20');
    expect((await send(h, alice, 'TRC20', trc.slice(0, -1) + 'x', '1')).code).toBe(420);
    expect((await send(h, alice, 'TRC20', erc, '1')).code).toBe(421);
    expect((await send(h, alice, 'ERC20', trc, '1')).code).toBe(421);
    const sendRaw = (body: unknown) => h.callRaw('/api/demo/chain/send', body, alice);
    for (const amount of ['0', '-1', '1e3', '1.0000001', 5, '', 'abc']) {
      expect((await sendRaw({ network: 'TRC20', address: trc, amount })).code).toBe(400);
    }
    expect((await sendRaw({ network: 'TRC20', address: trc, amount: '1', x: 1 })).code).toBe(400);
    // The same stored engine reopened in live mode: the member and session survive, the demo chain does not.
    const demo = await harness({ storage: 'deposits-demo-off' });
    const bob = await signUp(demo, 'bob');
    const bobAddress = await addressOf(demo, bob, 'TRC20');
    await demo.engine.close();
    const live = await harness({ storage: 'deposits-demo-off', config: { demo: false } });
    expect((await send(live, bob, 'TRC20', bobAddress, '1')).code).toBe(404);
  });
});

describe('D3 manual deposits are credited by the simulated reviewer, once per transaction', () => {
  it('D3 submit with a proof: pending, then success after the review delay', async () => {
    const h = await harness({ config: { rechargeReviewMs: 30_000 } });
    const alice = await signUp(h, 'alice');
    const proof = await upload(h, alice);
    const r = await h.call('/api/recharge/submit', { network: 'TRC20', amount: '20', proof }, alice);
    expect(r.code).toBe(0);
    const site = (await h.get('/api/site/getsite')).data;
    expect(r.data).toMatchObject({
      status: 'pending',
      type: 'manual',
      proof,
      amount: '20',
      address: site.walletAddress,
    });
    h.clock.advance(29_999);
    await h.engine.settle();
    expect((await user(h, alice))['available']).toBe('0');
    h.clock.advance(1);
    await h.engine.settle();
    expect((await user(h, alice))['available']).toBe('20');
    expect((await deposits(h, alice)).list[0]).toMatchObject({ status: 'success' });
  });

  it('D3 a transaction hash is accepted once; a chain-credited hash is refused', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const txid = 'AB'.repeat(32);
    expect((await h.call('/api/recharge/submit', { network: 'TRC20', amount: '5', txid }, alice)).code).toBe(
      0,
    );
    const again = await h.call(
      '/api/recharge/submit',
      { network: 'TRC20', amount: '5', txid: txid.toLowerCase() },
      alice,
    );
    expect(again).toMatchObject({ code: 400, msg: expect.stringMatching(/already/) });
    const sent = (await send(h, alice, 'TRC20', await addressOf(h, alice, 'TRC20'), '7')).data;
    expect(
      (await h.call('/api/recharge/submit', { network: 'TRC20', amount: '7', txid: sent.txid }, alice)).code,
    ).toBe(400);
  });

  it('D3 refuses a submission without evidence, a malformed hash, a foreign proof and bad amounts', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    const bobsProof = await upload(h, bob);
    const cases: unknown[] = [
      { network: 'TRC20', amount: '5' },
      { network: 'TRC20', amount: '5', txid: '0x' + 'a'.repeat(64) },
      { network: 'ERC20', amount: '5', txid: 'a'.repeat(64) },
      { network: 'TRC20', amount: '5', proof: bobsProof },
      { network: 'TRC20', amount: '5', proof: '/uploads/nope' },
      { network: 'TRC20', amount: '0', proof: bobsProof },
      { network: 'TRC20', amount: 5, txid: 'a'.repeat(64) },
      { network: 'TRC20', amount: '5', txid: 'a'.repeat(64), memo: 'x' },
    ];
    for (const body of cases) expect((await h.callRaw('/api/recharge/submit', body, alice)).code).toBe(400);
    expect((await deposits(h, alice)).total).toBe(0);
  });
});

describe('deposit records', () => {
  it('are listed newest first with API.md paging, and only to their owner', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    const address = await addressOf(h, alice, 'TRC20');
    for (const amount of ['1', '2', '3']) await send(h, alice, 'TRC20', address, amount);
    const all = await deposits(h, alice);
    expect(all.total).toBe(3);
    expect(all.list.map((d) => d.amount)).toEqual(['3', '2', '1']);
    const page2 = await deposits(h, alice, { page: 2, limit: 2 });
    expect(page2).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page2.list.map((d) => d.amount)).toEqual(['1']);
    expect((await deposits(h, bob)).total).toBe(0);
    expect((await h.call('/api/recharge/list', { limit: 101 }, alice)).code).toBe(400);
  });
});
