import { describe, expect, it } from 'vitest';

import { acct } from '../../../engine/ledger/accounts';

import { units } from '../../../engine/money';

import { harness, KEY } from './harness';

describe('asset accounts', () => {
  it('S1 assets list the five accounts and value them; a transfer moves money between own accounts', async () => {
    const h = await harness();
    const m = await h.member({ vip: 2, cash: '1000' });
    expect((await m.call('/api/product/buy', { id: '2', amount: '400', key: KEY })).code).toBe(0);
    const moved = await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '250.5' });
    expect(moved.code).toBe(0);
    expect(await h.balance(acct.user(m.id, 'contract'))).toBe(units(250) + 500_000n);
    const view = (await m.call('/api/account/assets')).data;
    expect(view.accounts.map((a) => a.account)).toEqual(['cash', 'fund', 'contract', 'options', 'financial']);
    expect(view.accounts.find((a) => a.account === 'cash')).toMatchObject({
      available: '349.5',
      frozen: '0',
    });
    expect(view.accounts.find((a) => a.account === 'contract')).toMatchObject({ available: '250.5' });
    expect(view.accounts.find((a) => a.account === 'financial')).toMatchObject({
      available: '0',
      frozen: '400',
    });
    expect(view.totalAssets).toBe('1000');
    expect(await h.invariants()).toEqual([]);
  });

  it('S1 transfers refuse the same account, the financial account, bad amounts (400) and overdrafts (4011)', async () => {
    const h = await harness();
    const m = await h.member({ vip: 1, cash: '10' });
    // Some of these bodies are outside the contract (unknown accounts, number amounts): sent unchecked.
    const t = (b: unknown) => m.callRaw('/api/account/transfer', b);
    expect((await t({ from: 'cash', to: 'cash', amount: '1' })).code).toBe(400);
    expect((await t({ from: 'cash', to: 'financial', amount: '1' })).code).toBe(400);
    expect((await t({ from: 'cash', to: 'bank', amount: '1' })).code).toBe(400);
    expect((await t({ from: 'cash', to: 'fund', amount: '0' })).code).toBe(400);
    expect((await t({ from: 'cash', to: 'fund', amount: '-1' })).code).toBe(400);
    expect((await t({ from: 'cash', to: 'fund', amount: '10.000001' })).code).toBe(4011);
    expect((await t({ from: 'cash', to: 'fund', amount: '10' })).code).toBe(0);
    expect((await t({ from: 'fund', to: 'options', amount: '10' })).code).toBe(0);
    expect(await h.balance(acct.user(m.id, 'options'))).toBe(units(10));
  });
});
