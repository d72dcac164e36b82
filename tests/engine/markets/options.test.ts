import { describe, expect, it } from 'vitest';

import { acct } from '../../../engine/ledger/accounts';

import { parseAmount, units } from '../../../engine/money';

import type { OrderView } from '../../../engine/trading/views';

import { harness, type OrderBody, type Side } from './harness';

const option = (side: Side, volume: string, period: number): OrderBody => ({
  symbol: 'ETH/USDT',
  market: 'option',
  side,
  volume,
  period,
});

describe('options', () => {
  it('O1 options settle against the 1m K-line: entry is the open at start, exit the close at expiry', async () => {
    const h = await harness(Date.UTC(2026, 10, 21, 9, 30, 25));
    const m = await h.member({ cash: '1000' });
    await m.call('/api/account/transfer', { from: 'cash', to: 'options', amount: '1000' });
    const placed: OrderView[] = [];
    for (const [side, period] of [
      ['up', 60],
      ['down', 60],
      ['up', 300],
      ['down', 900],
    ] as const) {
      const res = await m.call('/api/order/place', option(side, '100', period));
      expect(res.code).toBe(0);
      placed.push(res.data);
    }
    expect(placed[0]!.startTime).toBe(Date.UTC(2026, 10, 21, 9, 31, 0) / 1000);
    expect(await h.balance(acct.frozen(m.id, 'options'))).toBe(units(400));
    await h.advance(20 * 60_000);
    const settled = (await m.call('/api/order/list', { market: 'option', limit: 10 })).data.list;
    const kline = (await m.call('/api/market/kline', { symbol: 'ETH/USDT', interval: '1m', limit: 30 })).data;
    let expected = units(600);
    for (const o of settled) {
      expect(o.status).toBe('settled');
      const first = kline.find((c) => c.time === o.startTime)!;
      const last = kline.find((c) => c.time === o.expireTime! - 60)!;
      expect(o.entryPrice).toBe(first.open);
      expect(o.exitPrice).toBe(last.close);
      const up = parseAmount(last.close) > parseAmount(first.open);
      const draw = last.close === first.open;
      const result = draw ? 'draw' : up === (o.side === 'up') ? 'win' : 'lose';
      expect(o.result).toBe(result);
      const ratio = BigInt(Math.round(Number(o.payoutRatio) * 100));
      const payout =
        result === 'win' ? units(100) + (units(100) * ratio) / 10_000n : result === 'draw' ? units(100) : 0n;
      expect(parseAmount(o.payout!)).toBe(payout);
      expected += payout;
    }
    expect(await h.balance(acct.user(m.id, 'options'))).toBe(expected);
    expect(await h.balance(acct.frozen(m.id, 'options'))).toBe(0n);
    expect(await h.invariants()).toEqual([]);
  });

  it('O2 options refuse unknown periods and tiny stakes (400), overdrafts (4011) and cancelling (400)', async () => {
    const h = await harness();
    const m = await h.member({ cash: '50' });
    await m.call('/api/account/transfer', { from: 'cash', to: 'options', amount: '50' });
    expect((await m.call('/api/order/place', option('up', '10', 120))).code).toBe(400);
    expect((await m.call('/api/order/place', { ...option('up', '10', 60), period: undefined })).code).toBe(
      400,
    );
    expect((await m.call('/api/order/place', option('up', '0.5', 60))).code).toBe(400);
    expect((await m.call('/api/order/place', option('buy', '10', 60))).code).toBe(400);
    expect((await m.call('/api/order/place', option('down', '50.01', 60))).code).toBe(4011);
    const ok = await m.call('/api/order/place', option('down', '50', 60));
    expect((await m.call('/api/order/cancel', { id: ok.data.id })).code).toBe(400);
  });
});
