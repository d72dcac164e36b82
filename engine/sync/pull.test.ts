import { describe, expect, it } from 'vitest';
import type { BodyOf, DataOf } from '../contract';
import { harness, signUp, type Harness, type Session } from '../../tests/engine/harness';
import { pair, results, syncHarness, transfer, type SyncHarness } from '../../tests/engine/sync-kit';

type Page = DataOf<'/api/sync/pull'>;
type Change = Page['changes'][number];

async function pull(h: Harness, s: Session, body: BodyOf<'/api/sync/pull'> = {}): Promise<Page> {
  const r = await h.call('/api/sync/pull', body, s);
  if (r.code !== 0) throw new Error(`pull: ${r.code} ${r.msg}`);
  return r.data;
}

async function pullAll(h: Harness, s: Session, cursor?: string, limit?: number): Promise<Page> {
  const all: Change[] = [];
  let page: Page;
  do {
    page = await pull(h, s, { ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) });
    all.push(...page.changes);
    cursor = page.cursor;
  } while (page.hasMore);
  return { cursor: page.cursor, changes: all, hasMore: false };
}

/** Alice (1,000) paying bob 300 transfers of 1 in three pushes: each commits once, so each logs a record once. */
async function threeHundredTransfers(): Promise<{ h: SyncHarness; alice: Session }> {
  const h = await syncHarness();
  const { alice } = await pair(h);
  for (let p = 0; p < 3; p++)
    results(
      await h.push(
        alice,
        Array.from({ length: 100 }, (_, i) => transfer(`m${p}-${i}`)),
      ),
    );
  return { h, alice };
}

const cash = (changes: Change[], memberId: string) =>
  changes.find((c) => c.table === 'balances' && c.id === `user:${memberId}:cash|USDT`)?.record;

describe('sync pull (docs/RULES.md Y6-Y7)', () => {
  it('Y6 a pull from nothing answers the current records; the cursor then answers only what changed', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    results(await h.push(alice, [transfer('m1', '5'), transfer('m2', '6')]));
    const first = await pullAll(h, alice);
    expect(first.changes.filter((c) => c.table === 'members')).toHaveLength(1);
    expect(cash(first.changes, alice.id)).toMatchObject({ sub: 'cash', frozen: false, amount: '989' });
    // Three updates of alice's cash balance, one change: superseded changes are dropped.
    expect(first.changes.filter((c) => c.id === `user:${alice.id}:cash|USDT`)).toHaveLength(1);
    expect(first.changes.filter((c) => c.table === 'transfers').map((c) => c.record)).toMatchObject([
      { amount: '5' },
      { amount: '6' },
    ]);
    // The member's own figures come first (the head), then the log in its order.
    const headSize = first.changes.findIndex((c) => c.table !== 'members' && c.table !== 'balances');
    const seqs = first.changes.slice(headSize).map((c) => c.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

    expect((await pull(h, alice, { cursor: first.cursor })).changes).toEqual([]);
    results(await h.push(alice, [transfer('m3', '7')]));
    const next = await pull(h, alice, { cursor: first.cursor });
    expect(next.changes.map((c) => c.table).sort()).toEqual(['balances', 'transfers']);
    expect(cash(next.changes, alice.id)).toMatchObject({ amount: '982' });
    expect(next.hasMore).toBe(false);
  });

  it('Y6 paging with a small limit, across buckets of the log, answers the same changes as one pull', async () => {
    const { h, alice } = await threeHundredTransfers();
    const whole = await pullAll(h, alice);
    const paged = await pullAll(h, alice, undefined, 3);
    expect(paged.changes).toEqual(whole.changes);
    expect(paged.cursor).toBe(whole.cursor);
    expect(whole.changes.filter((c) => c.table === 'transfers')).toHaveLength(300);
    expect(Math.max(...whole.changes.map((c) => c.seq))).toBeGreaterThan(256);
    expect((await pull(h, alice, { limit: 3 })).changes).toHaveLength(3);
  });

  it('Y6 a pull from nothing answers the profile and balances first, each record once across its pages', async () => {
    const { h, alice } = await threeHundredTransfers();
    // Every transfer moved the balance to the end of the log; a first page of 10 still carries it.
    const first = await pull(h, alice, { limit: 10 });
    const headTables = first.changes.slice(0, 2).map((c) => c.table);
    expect(headTables).toEqual(expect.arrayContaining(['members', 'balances']));
    expect(cash(first.changes, alice.id)).toMatchObject({ amount: '700' });
    expect(first.hasMore).toBe(true);

    // A balance that changes while the rest is pulled comes again, newer; an unchanged one does not.
    results(await h.push(alice, [transfer('late', '1')]));
    const rest: Change[] = [];
    let page = first;
    while (page.hasMore) {
      page = await pull(h, alice, { cursor: page.cursor, limit: 10 });
      rest.push(...page.changes);
    }
    const all = [...first.changes, ...rest];
    expect(all.filter((c) => c.table === 'members')).toHaveLength(1);
    expect(rest.filter((c) => c.id === `user:${alice.id}:cash|USDT`).map((c) => c.record)).toMatchObject([
      { amount: '699' },
    ]);
    expect(all.filter((c) => c.table === 'transfers')).toHaveLength(301);
    expect(page.cursor.split('.')).toHaveLength(3);

    // The same records as a pull that had every page at once.
    const whole = await pullAll(h, alice);
    const latest = new Map(all.map((c) => [`${c.table}|${c.id}`, c.record]));
    expect(new Map(whole.changes.map((c) => [`${c.table}|${c.id}`, c.record]))).toEqual(latest);
  });

  it('Y7 a head cursor past the log answers 400', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const [epoch, id, seq] = (await pullAll(h, alice)).cursor.split('.');
    expect((await h.call('/api/sync/pull', { cursor: `${epoch}.${id}.${seq}.99999` }, alice)).code).toBe(400);
    expect((await h.call('/api/sync/pull', { cursor: `${epoch}.${id}.0.${seq}` }, alice)).code).toBe(0);
  });

  it('Y7 each member sees only their own records, as views without secrets', async () => {
    const h = await syncHarness();
    const { alice, bob } = await pair(h);
    results(await h.push(alice, [transfer('m1', '5')]));
    const mine = await pullAll(h, alice);
    const his = await pullAll(h, bob);
    const text = JSON.stringify([mine, his]);
    for (const secret of ['Hash', 'keyFails', 'answer', 'token', 'secret1', 'key1'])
      expect(text).not.toContain(secret);
    expect(his.changes.find((c) => c.table === 'transfers')?.record).toMatchObject({
      direction: 'in',
      account: 'alice',
    });
    expect(mine.changes.find((c) => c.table === 'transfers')?.record).toMatchObject({
      direction: 'out',
      account: 'bob',
    });
    expect(cash(his.changes, alice.id)).toBeUndefined();
    expect(his.changes.filter((c) => c.table === 'members').map((c) => c.record)).toMatchObject([
      { username: 'bob' },
    ]);
    // Bob's VIP deposit is frozen on his own account.
    expect(his.changes.find((c) => c.id === `user:${bob.id}:cash:frozen|USDT`)?.record).toMatchObject({
      frozen: true,
      amount: '500',
    });
  });

  it('Y6 product tables sync too: a bank card added through push arrives masked', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const card = { bankName: 'Bank', cardNumber: '6222020000000001', holder: 'Alice' };
    results(await h.push(alice, [{ id: 'card', name: '/api/bank/add', args: card }]));
    const page = await pullAll(h, alice);
    const cards = page.changes.filter((c) => c.table === 'bankCards').map((c) => c.record);
    expect(cards).toEqual([expect.objectContaining({ bankName: 'Bank', cardNumber: '**** **** **** 0001' })]);
    expect(JSON.stringify(page)).not.toContain('6222020000000001');
  });

  it('Y7 a cursor from before a reset (another database) answers 400, even for the same member id', async () => {
    const before = await syncHarness();
    const { alice } = await pair(before);
    const cursor = (await pull(before, alice)).cursor;
    const after = await harness({ seed: 99 });
    const again = await signUp(after, 'alice');
    expect(again.id).toBe(alice.id);
    expect((await after.call('/api/sync/pull', { cursor }, again)).code).toBe(400);
    expect((await after.call('/api/sync/pull', {}, again)).code).toBe(0);
  });

  it('Y7 a cursor of another account or of no known shape answers 400; pull needs a session', async () => {
    const h = await syncHarness();
    const { alice, bob } = await pair(h);
    const theirs = (await pull(h, bob)).cursor;
    expect((await h.call('/api/sync/pull', { cursor: theirs }, alice)).code).toBe(400);
    expect((await h.call('/api/sync/pull', { cursor: 'garbage' }, alice)).code).toBe(400);
    expect((await h.call('/api/sync/pull', { limit: 0 }, alice)).code).toBe(400);
    expect((await h.callRaw('/api/sync/pull', { since: 1 }, alice)).code).toBe(400);
    expect((await h.call('/api/sync/pull', {})).code).toBe(401);
  });
});
