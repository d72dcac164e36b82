import { describe, expect, it } from 'vitest';
import { Ids } from '../ids';
import { MemoryStore } from '../store/memory';
import { Tx } from '../store/tx';
import { acct } from './accounts';
import { checkInvariants, rebuildBalances } from './invariants';
import { Ledger, LedgerError } from './ledger';
import { balances } from './tables';

async function unit(store: MemoryStore, fn: (ledger: Ledger, tx: Tx) => Promise<void>): Promise<void> {
  const tx = new Tx(store);
  await fn(new Ledger(tx, new Ids(tx), 1_000), tx);
  await tx.commit();
}

const A = '100001';
const fundA = (l: Ledger) =>
  l.move(acct.world('TRC20'), acct.user(A), 100_000_000n, { kind: 'deposit', ref: 'd1' });

describe('ledger', () => {
  it('L1 an entry whose legs do not sum to zero per asset is refused', async () => {
    const store = new MemoryStore();
    await expect(
      unit(store, (l) =>
        l
          .post('bad', 'x', [
            { account: acct.world('TRC20'), amount: -5n },
            { account: acct.user(A), amount: 4n },
          ])
          .then(() => undefined),
      ),
    ).rejects.toThrow(/L1/);
    await expect(
      unit(store, (l) =>
        l
          .post('bad', 'x', [
            { account: acct.world('TRC20'), amount: -5n, asset: 'USDT' },
            { account: acct.user(A), amount: 5n, asset: 'BTC' },
          ])
          .then(() => undefined),
      ),
    ).rejects.toThrow(/L1/);
    expect(await store.scan('journal')).toEqual([]);
  });

  it('L4 a member account may not go negative; the outside world may', async () => {
    const store = new MemoryStore();
    await expect(
      unit(store, (l) =>
        l.move(acct.user(A), acct.user('2'), 1n, { kind: 't', ref: 'r' }).then(() => undefined),
      ),
    ).rejects.toThrow(LedgerError);
    await expect(
      unit(store, (l) =>
        l
          .move(acct.user(A), acct.user('2'), 1n, { kind: 't', ref: 'r', insufficientCode: 3005 })
          .then(() => undefined),
      ),
    ).rejects.toMatchObject({ code: 3005 });
    await unit(store, (l) => fundA(l).then(() => undefined));
    expect(await checkInvariants(store)).toEqual([]);
    expect(await store.get('balances', `${acct.world('TRC20')}|USDT`)).toMatchObject({
      amount: '-100000000',
    });
  });

  it('L5 L6 a hold freezes money and closes exactly once, by release or capture', async () => {
    const store = new MemoryStore();
    let holdId = '';
    await unit(store, async (l) => {
      await fundA(l);
      holdId = (await l.hold({ memberId: A, amount: 30_000_000n, reason: 'withdrawal', ref: 'w1' })).id;
      expect(await l.member(A)).toEqual({ available: 70_000_000n, frozen: 30_000_000n });
    });
    expect(await checkInvariants(store)).toEqual([]);
    await unit(store, async (l) => void (await l.release(holdId)));
    await expect(unit(store, async (l) => void (await l.release(holdId)))).rejects.toThrow(/L6/);
    await expect(
      unit(store, async (l) => void (await l.capture(holdId, acct.world('TRC20')))),
    ).rejects.toThrow(/L6/);
    let second = '';
    await unit(store, async (l) => {
      second = (await l.hold({ memberId: A, amount: 10_000_000n, reason: 'withdrawal', ref: 'w2' })).id;
      await l.capture(second, acct.world('TRC20'));
      expect(await l.member(A)).toEqual({ available: 90_000_000n, frozen: 0n });
    });
    expect(await checkInvariants(store)).toEqual([]);
    await expect(
      unit(
        store,
        async (l) =>
          void (await l.hold({
            memberId: A,
            amount: 91_000_000n,
            reason: 'x',
            ref: 'y',
            insufficientCode: 4011,
          })),
      ),
    ).rejects.toMatchObject({ code: 4011 });
  });

  it('L2 L3 cached balances equal the journal rebuild and every asset sums to zero; a tampered cache is caught', async () => {
    const store = new MemoryStore();
    await unit(store, async (l) => {
      await fundA(l);
      await l.move(acct.user(A), acct.platform('fees'), 1_500_000n, { kind: 'fee', ref: 'f' });
      await l.move(acct.house('market'), acct.user(A, 'contract'), 7n, {
        kind: 'pnl',
        ref: 'p',
        asset: 'BTC',
      });
    });
    const rebuilt = await rebuildBalances(store);
    expect(rebuilt.get(`${acct.user(A)}|USDT`)).toBe(98_500_000n);
    expect(rebuilt.get(`${acct.user(A, 'contract')}|BTC`)).toBe(7n);
    expect(await checkInvariants(store)).toEqual([]);
    await unit(store, async (_l, tx) => {
      tx.put(balances, {
        id: `${acct.user(A)}|USDT`,
        account: acct.user(A),
        asset: 'USDT',
        amount: '1',
        owner: A,
      });
    });
    const problems = await checkInvariants(store);
    expect(problems.some((p) => p.startsWith('L2'))).toBe(true);
    expect(problems.some((p) => p.startsWith('L3'))).toBe(true);
  });

  it('L2 touched members are reported so the runtime can announce their balances', async () => {
    const store = new MemoryStore();
    const tx = new Tx(store);
    const l = new Ledger(tx, new Ids(tx), 0);
    await fundA(l);
    expect([...l.touched]).toEqual([A]);
  });
});
