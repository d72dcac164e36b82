/**
 * Price alerts and the notices of the notification centre (docs/RULES.md N1-N6; API.md "Price alerts"):
 * setting, listing and cancelling alerts, every code of 6201-6205, firing at the first second the price
 * reached the alert however the clock advanced, and the notices of deposits, withdrawals, funding and
 * margin warnings.
 */
import { describe, expect, it } from 'vitest';
import type { BodyOf } from '../../../engine/contract';
import type { AlertView } from '../../../engine/alerts/view';
import { extremesBetween } from '../../../engine/market/extremes';
import { marketFor } from '../../../engine/market/instance';
import { findSymbol } from '../../../engine/market/symbols';
import { formatAmount, parseAmount } from '../../../engine/money';
import type { NoticeView } from '../../../engine/twofactor/wire';
import { harness, KEY, type Harness, type Member } from '../markets/harness';

const BTC = findSymbol('BTC')!;
const HOUR = 3_600_000;

function priceNow(h: Harness): bigint {
  return BigInt(marketFor(h.rt.seed).price(BTC, h.clock.now()));
}

async function alerts(m: Member, status?: BodyOf<'/api/alert/list'>['status']): Promise<AlertView[]> {
  const r = await m.call('/api/alert/list', status ? { status } : {});
  expect(r.code).toBe(0);
  return r.data.list;
}

async function notices(m: Member): Promise<NoticeView[]> {
  return (await m.call('/api/security/notices', { limit: 100 })).data.list;
}

/** The highest BTC price in (from, to]: a target that the next `ms` reach, found from the simulator. */
function reachableHigh(h: Harness, ms: number): bigint {
  const series = marketFor(h.rt.seed).get(BTC);
  return BigInt(extremesBetween(series, h.clock.now(), h.clock.now() + ms).high);
}

describe('N1-N2 setting, listing and cancelling alerts', () => {
  it('N1 sets above, below and move alerts at the price now, newest first; bad input writes nothing', async () => {
    const h = await harness();
    const m = await h.member();
    const now = priceNow(h);
    const above = await m.call('/api/alert/create', {
      symbol: 'BTC/USDT',
      kind: 'above',
      price: formatAmount(now + 1_000_000_000n),
    });
    expect(above.code).toBe(0);
    expect(above.data).toMatchObject({
      symbol: 'BTC/USDT',
      kind: 'above',
      price: formatAmount(now + 1_000_000_000n),
      percent: null,
      basePrice: formatAmount(now),
      status: 'active',
      firedPrice: null,
    });
    h.clock.advance(1);
    const below = await m.call('/api/alert/create', {
      symbol: 'BTC/USDT',
      kind: 'below',
      price: formatAmount(now - 1_000_000_000n),
    });
    expect(below.code).toBe(0);
    h.clock.advance(1);
    const move = await m.call('/api/alert/create', { symbol: 'BTC/USDT', kind: 'move', percent: '2.5' });
    expect(move.code).toBe(0);
    expect(move.data).toMatchObject({ kind: 'move', percent: '2.5', price: null });

    const bad: Array<[unknown, number]> = [
      [{ symbol: 'BTC/USDT', kind: 'move', percent: '0.09' }, 6201],
      [{ symbol: 'BTC/USDT', kind: 'move', percent: '50.01' }, 6201],
      [{ symbol: 'BTC/USDT', kind: 'move', percent: '1.234' }, 6201],
      [{ symbol: 'BTC/USDT', kind: 'above', price: '0' }, 6201],
      [{ symbol: 'BTC/USDT', kind: 'above', price: formatAmount(now) }, 6204],
      [{ symbol: 'BTC/USDT', kind: 'below', price: formatAmount(now + 1n) }, 6204],
      [{ symbol: 'BTC/USDT', kind: 'above', percent: '5' }, 400],
      [{ symbol: 'BTC/USDT', kind: 'sideways', price: '1' }, 400],
      [{ symbol: 'BTC/USDT', kind: 'above', price: -5 }, 400],
      [{ symbol: 'NOPE/USDT', kind: 'above', price: '1' }, 400],
    ];
    for (const [b, code] of bad)
      expect((await m.callRaw('/api/alert/create', b)).code, JSON.stringify(b)).toBe(code);
    const met = await m.call('/api/alert/create', { symbol: 'BTC/USDT', kind: 'above', price: '1' });
    expect(met.data).toEqual({ price: formatAmount(now) });

    const list = await alerts(m);
    expect(list.map((a) => a.kind)).toEqual(['move', 'below', 'above']);
    expect(await alerts(m, 'fired')).toEqual([]);
  });

  it('N2 6202 at the limit of active alerts; a cancelled one makes room; 6203 and 6205 change nothing', async () => {
    const h = await harness(undefined, 7, { alertLimit: 2 });
    const m = await h.member();
    const other = await h.member();
    const set = () => m.call('/api/alert/create', { symbol: 'ETH/USDT', kind: 'move', percent: '5' });
    const first = (await set()).data;
    expect((await set()).code).toBe(0);
    const full = await set();
    expect(full.code).toBe(6202);
    expect(full.data).toEqual({ limit: 2 });

    expect((await other.call('/api/alert/cancel', { id: first.id })).code).toBe(6203);
    expect((await m.call('/api/alert/cancel', { id: '999' })).code).toBe(6203);
    const cancelled = await m.call('/api/alert/cancel', { id: first.id });
    expect(cancelled.data).toMatchObject({ id: first.id, status: 'cancelled' });
    const again = await m.call('/api/alert/cancel', { id: first.id });
    expect(again.code).toBe(6205);
    expect(again.data).toEqual({ status: 'cancelled' });
    expect((await set()).code).toBe(0);
    expect((await alerts(m, 'active')).length).toBe(2);
    expect((await alerts(other)).length).toBe(0);
  });
});

describe('N3 firing as the clock advances', () => {
  it('N3 fires once, at the first second the price reached it, whether the clock jumps or steps', async () => {
    const fired: AlertView[] = [];
    for (const steps of [1, 36]) {
      const h = await harness();
      const m = await h.member();
      const target = reachableHigh(h, 6 * HOUR) - 1n;
      const created = await m.call('/api/alert/create', {
        symbol: 'BTC/USDT',
        kind: 'above',
        price: formatAmount(target),
      });
      expect(created.code).toBe(0);
      for (let i = 0; i < steps; i++) await h.advance((6 * HOUR) / steps);
      const [alert] = await alerts(m);
      expect(alert!.status).toBe('fired');
      expect(parseAmount(alert!.firedPrice!)).toBeGreaterThanOrEqual(target);
      // The first second: the prices up to one second before it stay under the target.
      const series = marketFor(h.rt.seed).get(BTC);
      const before = extremesBetween(series, alert!.createdAt * 1000, alert!.endedAt! * 1000 - 1000);
      expect(BigInt(before.high)).toBeLessThan(target);
      const told = (await notices(m)).filter((n) => n.kind === 'alert.fired');
      expect(told).toHaveLength(1);
      expect(told[0]!.params).toMatchObject({ symbol: 'BTC/USDT', kind: 'above', price: alert!.firedPrice });
      expect(h.feed.some((f) => f.type === 'notice')).toBe(true);
      // Fired alerts stay fired: a later settle neither fires nor tells again.
      await h.advance(HOUR);
      expect((await notices(m)).filter((n) => n.kind === 'alert.fired')).toHaveLength(1);
      fired.push(alert!);
    }
    expect(fired[0]).toEqual(fired[1]);
  });

  it('N3 a move alert fires on a move either way; a cancelled alert never fires', async () => {
    const h = await harness();
    const m = await h.member();
    const move = (await m.call('/api/alert/create', { symbol: 'BTC/USDT', kind: 'move', percent: '0.1' }))
      .data;
    const never = (await m.call('/api/alert/create', { symbol: 'BTC/USDT', kind: 'move', percent: '0.1' }))
      .data;
    expect((await m.call('/api/alert/cancel', { id: never.id })).code).toBe(0);
    await h.advance(12 * HOUR);
    const byId = new Map((await alerts(m)).map((a) => [a.id, a]));
    const fired = byId.get(move.id)!;
    expect(fired.status).toBe('fired');
    const base = parseAmount(fired.basePrice);
    const price = parseAmount(fired.firedPrice!);
    const moved = price > base ? price - base : base - price;
    expect(moved * 1000n).toBeGreaterThanOrEqual(base);
    expect(byId.get(never.id)!.status).toBe('cancelled');
    expect((await notices(m)).filter((n) => n.kind === 'alert.fired')).toHaveLength(1);
  });
});

describe('N4-N6 the other notices of the notification centre', () => {
  it('N4 warns once when a margin ratio reaches the threshold, again only after it went back under', async () => {
    const h = await harness(undefined, 7, { marginWarningBps: 1 });
    const m = await h.member({ cash: '10000' });
    expect(
      (await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '10000' })).code,
    ).toBe(0);
    const open = await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'open_long',
      type: 'market',
      volume: '0.01',
      leverage: 10,
      marginMode: 'isolated',
    });
    expect(open.code).toBe(0);
    await h.advance(2_000);
    await h.advance(2_000);
    const warned = (await notices(m)).filter((n) => n.kind === 'margin.warning');
    expect(warned).toHaveLength(1);
    expect(warned[0]!.params).toMatchObject({ symbol: 'BTC/USDT', account: 'isolated' });
    expect(Number(warned[0]!.params['ratio'])).toBeGreaterThan(0);
    const close = await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'close_long',
      type: 'market',
      volume: '0.01',
    });
    expect(close.code).toBe(0);
    await h.advance(2_000);
    expect(await h.store.scan('marginWarnings')).toEqual([]);
  });

  it('N5 funding: one notice per member and funding time with the sum paid or received', async () => {
    const h = await harness(Date.UTC(2026, 10, 21, 7, 0, 0));
    const m = await h.member({ cash: '10000' });
    await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '10000' });
    for (const side of ['open_long', 'open_short'] as const)
      expect(
        (
          await m.call('/api/order/place', {
            symbol: 'BTC/USDT',
            market: 'contract',
            side,
            type: 'market',
            volume: '0.01',
            leverage: 5,
            marginMode: 'isolated',
          })
        ).code,
      ).toBe(0);
    await h.advance(2 * HOUR);
    const funding = (await notices(m)).filter((n) => n.kind === 'funding.settled');
    const payments = (await m.call('/api/position/funding', {})).data;
    expect(payments.list).toHaveLength(2);
    const sum = payments.list.reduce((s, p) => s + signed(p.amount), 0n);
    if (sum === 0n) expect(funding).toHaveLength(0);
    else {
      expect(funding).toHaveLength(1);
      expect(funding[0]!.params).toEqual({
        amount: formatAmount(sum),
        positions: '2',
        time: String(Date.UTC(2026, 10, 21, 8, 0, 0) / 1000),
      });
    }
  });

  it('N6 a deposit credited and a withdrawal sent each tell the member once', async () => {
    const h = await harness();
    const m = await h.member({ cash: '100' });
    const address = (await m.call('/api/recharge/address', { network: 'TRC20' })).data.address;
    expect((await m.call('/api/demo/chain/send', { network: 'TRC20', address, amount: '25' })).code).toBe(0);
    const w = await m.call('/api/withdraw/submit', {
      currency: 'USDT',
      network: 'TRC20',
      address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
      amount: '20',
      key: KEY,
    });
    expect(w.code).toBe(911);
    await h.advance(HOUR);
    const told = await notices(m);
    const deposit = told.filter((n) => n.kind === 'deposit.credited');
    expect(deposit).toHaveLength(1);
    expect(deposit[0]!.params).toMatchObject({ amount: '25', network: 'TRC20' });
    const sent = told.filter((n) => n.kind === 'withdrawal.sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params).toMatchObject({ amount: '19', network: 'TRC20' });
    expect(sent[0]!.params['txid']).toMatch(/^[0-9a-f]{64}$/);
  });
});

function signed(s: string): bigint {
  return s.startsWith('-') ? -parseAmount(s.slice(1)) : parseAmount(s);
}
