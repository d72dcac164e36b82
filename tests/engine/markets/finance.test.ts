import { describe, expect, it } from 'vitest';

import { acct } from '../../../engine/ledger/accounts';

import { parseAmount, units } from '../../../engine/money';

import { earningsOfDay, earningsThrough } from '../../../engine/finance/accrual';

import { DAY, harness, KEY } from './harness';

describe('finance products', () => {
  it('F1 the catalogue offers 30-day products at 8%-22% by product and VIP level, with the SPEC fields', async () => {
    const h = await harness();
    const vip6 = await h.member({ vip: 6 });
    const res = await vip6.call('/api/product/getlist');
    expect(res.code).toBe(0);
    const list = res.data.list;
    expect(list.length).toBeGreaterThanOrEqual(4);
    for (const p of list) {
      expect(p.termDays).toBe(30);
      for (const r of p.rates) {
        expect(Number(r.annualRate)).toBeGreaterThanOrEqual(8);
        expect(Number(r.annualRate)).toBeLessThanOrEqual(22);
      }
      for (const field of [
        'price',
        'min',
        'max',
        'personalLimit',
        'totalAmount',
        'remaining',
        'expectedReturn',
      ]) {
        expect((p as unknown as Record<string, string>)[field]).toMatch(/^\d+(\.\d+)?$/);
      }
    }
    expect(list.find((p) => p.id === '4')!.annualRate).toBe('22.00');
    const vip1 = await h.member({ vip: 1 });
    const detail = await vip1.call('/api/product/detail', { id: 4 });
    expect(detail.data.annualRate).toBe('16.00');
    expect((await vip1.call('/api/product/detail', { id: '99' })).code).toBe(404);
    expect((await vip1.call('/api/product/getlist', { type: 'premium' })).data).toMatchObject({
      list: [{ id: '4' }],
    });
  });

  it('F5 buying answers 3009, 4034, 3010, 4011, 3007, 404 and 400 as the catalogue says, writing nothing', async () => {
    const h = await harness();
    const vip0 = await h.member({ vip: 0, cash: '5000' });
    expect((await vip0.call('/api/product/buy', { id: '2', amount: '100', key: KEY })).code).toBe(3009);
    const newbie = await h.member({ vip: 2, cash: '5000', ageDays: 3 });
    expect((await newbie.call('/api/product/buy', { id: '4', amount: '1000', key: KEY })).code).toBe(4034);
    expect((await newbie.call('/api/product/buy', { id: '2', amount: '100', key: KEY })).code).toBe(0);
    const m = await h.member({ vip: 1, cash: '3000' });
    expect((await m.call('/api/product/buy', { id: '1', amount: '9.99', key: KEY })).code).toBe(3010);
    expect((await m.call('/api/product/buy', { id: '1', amount: '2000.01', key: KEY })).code).toBe(3010);
    expect((await m.call('/api/product/buy', { id: '1', amount: '1500', key: KEY })).code).toBe(0);
    // Personal limit: 1,500 held + 600 > 2,000.
    expect((await m.call('/api/product/buy', { id: '1', amount: '600', key: KEY })).code).toBe(3010);
    expect((await m.call('/api/product/buy', { id: '2', amount: '1500.000001', key: KEY })).code).toBe(4011);
    expect((await m.call('/api/product/buy', { id: '2', amount: '100', key: 'wrong' })).code).toBe(3007);
    expect((await m.call('/api/product/buy', { id: '77', amount: '100', key: KEY })).code).toBe(404);
    for (const amount of ['-5', 'abc', 12.5, '1e3']) {
      expect((await m.callRaw('/api/product/buy', { id: '2', amount, key: KEY })).code).toBe(400);
    }
    expect(await h.balance(acct.user(m.id))).toBe(units(1500));
    expect(await h.invariants()).toEqual([]);
  });

  it('F5 what is left in the round bounds a purchase (3010), and the round refills the next UTC day', async () => {
    const h = await harness();
    const whales = [await h.member({ vip: 6, cash: '1000000' }), await h.member({ vip: 6, cash: '1000000' })];
    for (const w of whales) {
      expect((await w.call('/api/product/buy', { id: '4', amount: '500000', key: KEY })).code).toBe(0);
      expect((await w.call('/api/product/buy', { id: '4', amount: '500000', key: KEY })).code).toBe(0);
    }
    const late = await h.member({ vip: 3, cash: '5000' });
    expect((await late.call('/api/product/detail', { id: '4' })).data).toMatchObject({
      remaining: '0',
      status: 'sold out',
    });
    expect((await late.call('/api/product/buy', { id: '4', amount: '1000', key: KEY })).code).toBe(3010);
    await h.advance(DAY);
    expect((await late.call('/api/product/buy', { id: '4', amount: '1000', key: KEY })).code).toBe(0);
  });

  it('F2 F3 thirty days credit principal x rate / 365 each day, then return the principal on the redemption day', async () => {
    const h = await harness();
    const m = await h.member({ vip: 1, cash: '10000' });
    const buy = await m.call('/api/product/buy', { id: '2', amount: '10000', key: KEY });
    expect(buy.code).toBe(0);
    const order = buy.data;
    expect(order).toMatchObject({
      amount: '10000',
      annualRate: '10.00',
      dailyEarnings: '2.739726',
      status: 'active',
    });
    expect(await h.balance(acct.user(m.id))).toBe(0n);
    expect(await h.balance(acct.frozen(m.id, 'financial'))).toBe(units(10_000));
    let cash = 0n;
    for (let day = 1; day <= 30; day++) {
      await h.advance(DAY - 1);
      expect(await h.balance(acct.user(m.id))).toBe(cash);
      await h.advance(1);
      cash += earningsOfDay(units(10_000), 1000, day);
      if (day === 30) cash += units(10_000);
      expect(await h.balance(acct.user(m.id))).toBe(cash);
    }
    expect(cash).toBe(units(10_000) + earningsThrough(units(10_000), 1000, 30));
    expect(await h.balance(acct.frozen(m.id, 'financial'))).toBe(0n);
    expect(await h.balance(acct.user(m.id, 'financial'))).toBe(0n);
    const orders = (await m.call('/api/product/orders')).data;
    expect(orders.list[0]).toMatchObject({
      status: 'redeemed',
      daysCredited: 30,
      cumulativeEarnings: '82.19178',
    });
    const log = (await m.call('/api/sprofitlog/getlist', { type: 'finance', limit: 100 })).data;
    expect(log.total).toBe(30);
    expect(await h.invariants()).toEqual([]);
  });

  it('F4 an engine closed for 40 days credits each missed day once, dated the day it belongs to', async () => {
    const h = await harness();
    const m = await h.member({ vip: 4, cash: '25000' });
    const start = h.clock.now();
    expect((await m.call('/api/product/buy', { id: '3', amount: '25000', key: KEY })).code).toBe(0);
    await h.advance(40 * DAY);
    await h.advance(0);
    const expected = units(25_000) + earningsThrough(units(25_000), 1600, 30);
    expect(await h.balance(acct.user(m.id))).toBe(expected);
    const log = (await m.call('/api/sprofitlog/getlist', { limit: 100 })).data;
    expect(log.total).toBe(30);
    const times = log.list.map((p) => p.time).reverse();
    expect(times).toEqual(Array.from({ length: 30 }, (_, i) => Math.floor((start + (i + 1) * DAY) / 1000)));
    const paid = log.list.reduce((s, p) => s + parseAmount(p.amount), 0n);
    expect(paid).toBe(earningsThrough(units(25_000), 1600, 30));
    expect(await h.invariants()).toEqual([]);
  });

  it('F6 the principal stays frozen for the term: it cannot be moved out of the financial account', async () => {
    const h = await harness();
    const m = await h.member({ vip: 2, cash: '1000' });
    expect((await m.call('/api/product/buy', { id: '2', amount: '1000', key: KEY })).code).toBe(0);
    expect(await h.balance(acct.user(m.id, 'financial'))).toBe(0n);
    expect(await h.balance(acct.frozen(m.id, 'financial'))).toBe(units(1000));
  });
});
