/**
 * Liquidation as an event in time (issue 24; docs/TRADING.md "Liquidation as an event in time"): the
 * watch finds the second the mark crossed, liquidates at that second's prices and records it, whatever the
 * clock's step; a cross liquidation takes the whole cross account and leaves nothing frozen; money is
 * conserved (every entry balanced, no member or platform balance below zero).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acct } from '../../../engine/ledger/accounts';
import { INSURANCE } from '../../../engine/trading/risk';
import type { PositionRow } from '../../../engine/trading/tables';
import { DAY, harness } from './harness';

type Order = {
  symbol: string;
  side: 'open_long' | 'open_short';
  volume: string;
  leverage: number;
  mode: 'cross' | 'isolated';
};

/**
 * Each member's orders (leverage and margin mode are a member's setting for every contract). The cash is
 * sized to the seed's prices on 2026-11-21 (BTC ~121,000, ETH ~5,240, SOL ~239); the 100x cross account's
 * 44 USDT is liquidated about 72 hours in, so the 5-minute run stays short.
 */
const BOOKS: Record<string, { cash: string; orders: Order[] }[]> = {
  // A 100x cross long with a small ETH short beside it; another member's isolated 50x BTC short.
  mixed: [
    {
      cash: '44',
      orders: [
        { symbol: 'BTC/USDT', side: 'open_long', volume: '0.02', leverage: 100, mode: 'cross' },
        { symbol: 'ETH/USDT', side: 'open_short', volume: '0.2', leverage: 100, mode: 'cross' },
      ],
    },
    {
      cash: '28',
      orders: [{ symbol: 'BTC/USDT', side: 'open_short', volume: '0.01', leverage: 50, mode: 'isolated' }],
    },
  ],
  // A hedged BTC book with an unequal leg and a SOL long, all cross at 50x.
  hedged: [
    {
      cash: '140',
      orders: [
        { symbol: 'BTC/USDT', side: 'open_long', volume: '0.03', leverage: 50, mode: 'cross' },
        { symbol: 'BTC/USDT', side: 'open_short', volume: '0.02', leverage: 50, mode: 'cross' },
        { symbol: 'SOL/USDT', side: 'open_long', volume: '3', leverage: 50, mode: 'cross' },
      ],
    },
  ],
};

/** Opens the members' books, scaling the first member's cash by `scale` %, then runs `days` in steps of `step` ms. */
async function run(
  book: { cash: string; orders: Order[] }[],
  scale: number,
  days: number,
  step: number,
  /** Steps of `step` only until this engine time, then one jump to the end. */
  stepUntil = Number.POSITIVE_INFINITY,
) {
  const h = await harness();
  const members = [];
  for (const [i, who] of book.entries()) {
    const cash = i === 0 ? String((Number(who.cash) * scale) / 100) : who.cash;
    const m = await h.member({ cash });
    expect((await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: cash })).code).toBe(
      0,
    );
    for (const o of who.orders) {
      const res = await m.call('/api/order/place', {
        symbol: o.symbol,
        market: 'contract',
        side: o.side,
        volume: o.volume,
        leverage: o.leverage,
        marginMode: o.mode,
      });
      if (res.code !== 0) throw new Error(`${o.symbol} ${o.side}: ${res.code} ${res.msg}`);
    }
    members.push(m);
  }
  const end = h.clock.now() + days * DAY;
  while (h.clock.now() < end) {
    const now = h.clock.now();
    await h.advance(now < stepUntil ? Math.min(step, end - now) : end - now);
  }
  const rows = ((await h.store.scan('positions')) as PositionRow[])
    .sort((a, b) => Number(a.id) - Number(b.id))
    .map((p) => ({
      id: p.id,
      memberId: p.memberId,
      status: p.status,
      closedAt: p.closedAt,
      realisedPnl: p.realisedPnl,
      margin: p.margin,
      fundingPaid: p.fundingPaid,
      liquidationPrice: p.liquidationPrice,
    }));
  const balances = [];
  for (const m of members) {
    balances.push([
      await h.balance(acct.user(m.id, 'contract')),
      await h.balance(acct.frozen(m.id, 'contract')),
    ]);
  }
  return {
    h,
    rows,
    balances,
    insurance: await h.balance(INSURANCE),
    house: await h.balance(acct.house('market')),
    funding: (await h.store.scan('fundingPayments')).length,
  };
}

describe('liquidation as an event in time', () => {
  it(
    '20 days at once equal 20 days in 5-minute steps: same liquidations, same seconds, same money',
    { timeout: 600_000 },
    async () => {
      const once = await run(BOOKS.mixed!, 100, 20, 20 * DAY);
      // 5-minute steps past every liquidation of the jump (each step costs a full settle), then the rest.
      const last = Math.max(...once.rows.map((r) => r.closedAt ?? 0));
      expect(last).toBeGreaterThan(0);
      const steps = await run(BOOKS.mixed!, 100, 20, 5 * 60_000, last + 3_600_000);
      const { h, ...a } = once;
      const { h: h2, ...b } = steps;
      expect(a).toEqual(b);
      // Something happened: the 100x cross account was liquidated within the 20 days, as one.
      const cross = a.rows.filter((r) => r.memberId === a.rows[0]!.memberId);
      expect(cross.every((r) => r.status === 'liquidated')).toBe(true);
      expect(cross[0]!.closedAt).toBe(cross[1]!.closedAt);
      // At the second it happened, not at the end of the jump.
      expect(cross[0]!.closedAt! % 1_000).toBe(0);
      expect(cross[0]!.closedAt!).toBeLessThan(h.clock.now());
      // Nothing of the cross account is left frozen.
      expect(a.balances[0]![1]).toBe(0n);
      expect(await h.invariants()).toEqual([]);
      expect(await h2.invariants()).toEqual([]);
    },
  );

  it(
    'any clock step gives the same outcome, and money is conserved (fast-check)',
    { timeout: 600_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('mixed', 'hedged'),
          fc.constantFrom(100, 110, 150),
          fc.constantFrom(7 * 60_000, 3_600_000, 5 * 3_600_000, 8 * 3_600_000, DAY),
          async (book, cash, step) => {
            const a = await run(BOOKS[book]!, cash, 3, 3 * DAY);
            const b = await run(BOOKS[book]!, cash, 3, step);
            const { h, ...x } = a;
            const { h: h2, ...y } = b;
            expect(x).toEqual(y);
            expect(await h.invariants()).toEqual([]);
            expect(await h2.invariants()).toEqual([]);
          },
        ),
        { numRuns: 5 },
      );
    },
  );
});
