import { describe, expect, it } from 'vitest';

import { acct } from '../../../engine/ledger/accounts';

import { extremesBetween } from '../../../engine/market/extremes';

import { marketFor } from '../../../engine/market/instance';

import { findSymbol } from '../../../engine/market/symbols';

import { mulDiv, parseAmount, units } from '../../../engine/money';

import { DAY, harness, type OrderBody } from './harness';

const BTC = findSymbol('BTC')!;
const place = (body: Omit<OrderBody, 'symbol' | 'market'>): OrderBody => ({
  symbol: 'BTC/USDT',
  market: 'spot',
  ...body,
});

describe('spot trading', () => {
  it('S2 a market buy walks the book, pays value plus fee, and a sell pays back value minus fee', async () => {
    const h = await harness();
    const m = await h.member({ cash: '10000' });
    const res = await m.call('/api/order/place', place({ side: 'buy', type: 'market', volume: '0.05' }));
    expect(res.code).toBe(0);
    const order = res.data;
    expect(order).toMatchObject({ status: 'filled', filled: '0.05', side: 'buy' });
    const book = marketFor(h.rt.seed).book(BTC, h.clock.now(), 1);
    expect(parseAmount(order.avgPrice)).toBe(BigInt(book.asks[0]!.price));
    const value = mulDiv(units(1) / 20n, parseAmount(order.avgPrice), units(1), 'ceil');
    const fee = mulDiv(value, 10n, 10_000n, 'ceil');
    expect(parseAmount(order.fee)).toBe(fee);
    expect(await h.balance(acct.user(m.id))).toBe(units(10_000) - value - fee);
    expect(await h.balance(acct.user(m.id), 'BTC')).toBe(50_000n);
    expect(await h.balance(acct.platform('fees'))).toBe(fee);
    const sell = await m.call('/api/order/place', place({ side: 'sell', type: 'market', volume: '0.05' }));
    expect(sell.code).toBe(0);
    expect(await h.balance(acct.user(m.id), 'BTC')).toBe(0n);
    expect(await h.invariants()).toEqual([]);
  });

  it('S3 a limit order below the market rests with its money frozen, is listed as current, and cancels', async () => {
    const h = await harness();
    const m = await h.member({ cash: '1000' });
    const res = await m.call(
      '/api/order/place',
      place({ side: 'buy', type: 'limit', price: '1000', volume: '0.5' }),
    );
    expect(res.code).toBe(0);
    const order = res.data;
    expect(order.status).toBe('open');
    expect(await h.balance(acct.frozen(m.id))).toBe(units(500) + units(1) / 2n);
    const current = (await m.call('/api/order/list', { status: 'open' })).data;
    expect(current.list.map((o) => o.id)).toEqual([order.id]);
    expect((await m.call('/api/order/cancel', { id: order.id })).data).toMatchObject({ status: 'cancelled' });
    expect(await h.balance(acct.frozen(m.id))).toBe(0n);
    expect(await h.balance(acct.user(m.id))).toBe(units(1000));
    expect((await m.call('/api/order/cancel', { id: order.id })).code).toBe(400);
    expect((await m.call('/api/order/cancel', { id: '999' })).code).toBe(404);
  });

  it('S4 a resting limit order fills at its price when, and only when, the traded price touches it', async () => {
    const h = await harness();
    const m = await h.member({ cash: '100000' });
    const sim = marketFor(h.rt.seed);
    const start = h.clock.now();
    const last = sim.price(BTC, start);
    const limits = [0.999, 0.99, 0.9].map((f) => Math.floor((last * f) / 10_000) * 10_000);
    const ids: string[] = [];
    for (const price of limits) {
      const res = await m.call(
        '/api/order/place',
        place({ side: 'buy', type: 'limit', price: String(price / 1e6), volume: '0.1' }),
      );
      ids.push(res.data.id);
    }
    await h.advance(DAY);
    const low = extremesBetween(sim.get(BTC), start, start + DAY).low;
    const list = (await m.call('/api/order/list', { market: 'spot' })).data.list;
    for (const [i, price] of limits.entries()) {
      const o = list.find((x) => x.id === ids[i])!;
      expect(o.status).toBe(low <= price ? 'filled' : 'open');
      if (o.status === 'filled') expect(parseAmount(o.avgPrice)).toBe(BigInt(price));
    }
    expect(list.some((o) => o.status === 'filled')).toBe(true);
    expect(await h.invariants()).toEqual([]);
  });

  it('S5 bad orders answer 400, too little money 4011, and write nothing', async () => {
    const h = await harness();
    const m = await h.member({ cash: '100' });
    // Refused orders, the last two outside the contract's body (an unknown market, a number volume).
    const bad: unknown[] = [
      place({ side: 'buy', volume: '0' }),
      place({ side: 'buy', type: 'limit', volume: '0.001' }),
      place({ side: 'open_long', volume: '0.001' }),
      place({ side: 'buy', volume: '0.000001' }),
      { ...place({ side: 'buy', volume: '0.001' }), symbol: 'ABC/USDT' },
      { ...place({ side: 'buy', volume: '0.001' }), market: 'forex' },
      { ...place({ side: 'buy', volume: '0' }), volume: -1 },
    ];
    for (const b of bad) expect((await m.callRaw('/api/order/place', b)).code).toBe(400);
    expect((await m.call('/api/order/place', place({ side: 'buy', volume: '1' }))).code).toBe(4011);
    expect((await m.call('/api/order/place', place({ side: 'sell', volume: '0.01' }))).code).toBe(4011);
    expect(
      (await m.call('/api/order/place', place({ side: 'buy', type: 'limit', price: '10', volume: '11' })))
        .code,
    ).toBe(4011);
    expect(await h.balance(acct.user(m.id))).toBe(units(100));
  });

  it('R1 the inviter earns the configured 20% share of the fee on a direct invitee trade, logged as invite profit', async () => {
    const h = await harness();
    const inviter = await h.member({ cash: '0' });
    const invitee = await h.member({ cash: '10000', invitedBy: inviter.id });
    const res = await invitee.call('/api/order/place', place({ side: 'buy', volume: '0.05' }));
    const fee = parseAmount(res.data.fee);
    const share = (fee * 2_000n) / 10_000n;
    expect(await h.balance(acct.user(inviter.id))).toBe(share);
    expect(await h.balance(acct.platform('fees'))).toBe(fee - share);
    const log = (await inviter.call('/api/sprofitlog/getlist', { type: 'invite' })).data;
    expect(log.list).toHaveLength(1);
    expect(parseAmount(log.list[0]!.amount)).toBe(share);
  });
});
