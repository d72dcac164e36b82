/**
 * The risk desk's rules through the real engine (docs/RULES.md S7, K9-K13): partial fills inside the
 * price band, tier-capped leverage, funding every eight hours and liquidation with an insurance fund.
 */
import { describe, expect, it } from 'vitest';

import { acct } from '../../../engine/ledger/accounts';

import { journal, type JournalEntry } from '../../../engine/ledger/tables';

import { marketFor } from '../../../engine/market/instance';

import { findSymbol } from '../../../engine/market/symbols';

import { parseAmount, units } from '../../../engine/money';

import { fundingRate, FUNDING_INTERVAL_MS, markPrice } from '../../../engine/trading/mark';

import { INSURANCE, liquidate } from '../../../engine/trading/risk';

import { settleFunding } from '../../../engine/trading/funding';

import { contractBook } from '../../../engine/trading/mark';

import type { PositionRow } from '../../../engine/trading/tables';

import { harness, type Member, type OrderBody, type Side } from './harness';

const BTC = findSymbol('BTC')!;
const HOUR = 3_600_000;
/** Value (scaled by 1e6) of selling 0.01 BTC into the contract book at `at`. */
function contractWalkValue(seed: number, at: number): bigint {
  const book = contractBook(marketFor(seed), BTC, at, 1);
  return BigInt(book.bids[0]!.price) * 10_000n;
}

const feeOf = (p: PositionRow): bigint => BigInt(p.fees);
const signed = (s: string): bigint => (s.startsWith('-') ? -parseAmount(s.slice(1)) : parseAmount(s));

async function contractMember(h: Awaited<ReturnType<typeof harness>>, cash: string) {
  const m = await h.member({ cash });
  expect((await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: cash })).code).toBe(
    0,
  );
  return m;
}

async function positionsOf(m: Member) {
  return (await m.call('/api/position/list')).data.list;
}

describe('fills, tiers, funding and liquidation', () => {
  it('S7 a spot market buy larger than the band allows fills level by level to the band and cancels the rest', async () => {
    const h = await harness();
    const m = await h.member({ cash: '5000000000' });
    const mid = marketFor(h.rt.seed).price(BTC, h.clock.now());
    const res = await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'spot',
      side: 'buy',
      type: 'market',
      volume: '20000',
    });
    expect(res.code).toBe(0);
    const o = res.data;
    expect(o.status).toBe('partial');
    const filled = parseAmount(o.filled);
    expect(filled).toBeGreaterThan(0n);
    expect(filled + parseAmount(o.cancelledVolume)).toBe(units(20_000));
    expect(o.fills).toBeGreaterThan(100);
    // The average is inside the band; the member got exactly what was filled.
    expect(Number(o.avgPrice) * 1e6).toBeLessThanOrEqual(mid * 1.05);
    expect(await h.balance(acct.user(m.id), 'BTC')).toBe(filled);
    expect((await m.call('/api/order/list', { status: 'partial' })).data).toMatchObject({ total: 1 });
    expect(await h.invariants()).toEqual([]);
  });

  it('K10 an order whose position notional is above its tier for the leverage is refused with 4035 and writes nothing', async () => {
    const h = await harness();
    const m = await contractMember(h, '100000');
    // About 870,000 USDT of BTC: tier 3 allows 50x, so 100x is refused.
    const res = await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'open_long',
      volume: '10',
      leverage: 100,
      marginMode: 'isolated',
    });
    expect(res.code).toBe(4035);
    expect(res.data).toMatchObject({ maxLeverage: 50, maxNotional: '250000' });
    expect(await h.balance(acct.user(m.id, 'contract'))).toBe(units(100_000));
    expect(await positionsOf(m)).toEqual([]);
    // The same size at 50x is fine, and so is a small 100x position.
    await m.call('/api/position/settings', { leverage: 50 });
    const ok = await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'open_long',
      volume: '10',
    });
    expect(ok.code).toBe(0);
    const [p] = await positionsOf(m);
    expect(p!.maintenanceRate).toBe('1.00');
    expect(await h.invariants()).toEqual([]);
  });

  it('K11 positions are valued at the mark price, not the last trade', async () => {
    const h = await harness();
    const m = await contractMember(h, '10000');
    await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'open_short',
      volume: '0.05',
      leverage: 10,
      marginMode: 'isolated',
    });
    await h.advance(HOUR / 2);
    const [p] = await positionsOf(m);
    const mark = markPrice(marketFor(h.rt.seed), BTC, h.clock.now());
    expect(parseAmount(p!.markPrice)).toBe(mark);
    const entry = parseAmount(p!.entryPrice);
    const diff = (entry - mark) * 50_000n;
    const pnl = diff >= 0n ? diff / units(1) : -((-diff + units(1) - 1n) / units(1));
    expect(signed(p!.unrealisedPnl)).toBe(pnl);
    expect(Number(p!.marginRatio)).toBeGreaterThan(0);
  });

  it('K12 funding at 08:00 UTC: longs and shorts pay notional x rate to or from the house, summing to zero', async () => {
    const h = await harness(Date.UTC(2026, 10, 21, 7, 0, 0));
    const long = await contractMember(h, '10000');
    const short = await contractMember(h, '10000');
    const place = (side: Side, marginMode: OrderBody['marginMode']): OrderBody => ({
      symbol: 'BTC/USDT',
      market: 'contract',
      side,
      volume: '0.1',
      leverage: 10,
      marginMode,
    });
    expect((await long.call('/api/order/place', place('open_long', 'cross'))).code).toBe(0);
    expect((await short.call('/api/order/place', place('open_short', 'isolated'))).code).toBe(0);
    const houseBefore = await h.balance(acct.house('market'));
    await h.advance(HOUR + 1_000);
    const at = Date.UTC(2026, 10, 21, 8, 0, 0);
    expect(at % FUNDING_INTERVAL_MS).toBe(0);
    const rate = fundingRate(marketFor(h.rt.seed), BTC, at);
    expect(rate).not.toBe(0);
    const [lp] = await positionsOf(long);
    const [sp] = await positionsOf(short);
    const paidLong = signed(lp!.fundingPaid);
    const paidShort = signed(sp!.fundingPaid);
    expect(paidLong === 0n).toBe(false);
    expect(Math.sign(Number(paidLong))).toBe(Math.sign(rate));
    expect(Math.sign(Number(paidShort))).toBe(-Math.sign(rate));
    const history = (await long.call('/api/position/funding')).data;
    expect(history.list).toHaveLength(1);
    expect(history.list[0]).toMatchObject({ positionId: lp!.id, time: at / 1000 });
    expect(signed(history.list[0]!.amount)).toBe(paidLong);
    // Every funding posting is balanced, and the house took exactly the members' net payments.
    const entries = (await h.store.scan(journal.name)) as JournalEntry[];
    const funding = entries.filter((e) => e.kind === 'contract:funding');
    expect(funding).toHaveLength(2);
    let house = 0n;
    for (const e of funding) {
      expect(e.legs.reduce((s, l) => s + BigInt(l.amount), 0n)).toBe(0n);
      for (const l of e.legs) if (l.account === acct.house('market')) house += BigInt(l.amount);
    }
    expect(house).toBe(paidLong + paidShort);
    expect((await h.balance(acct.house('market'))) - houseBefore).toBe(house);
    // The isolated short's margin moved by its funding.
    expect(parseAmount(sp!.margin)).toBe(await h.balance(acct.frozen(short.id, 'contract')));
    expect(await h.invariants()).toEqual([]);
  });

  it('K13 a liquidation loss beyond the margin is paid by the insurance fund, else the house is deleveraged; no member balance goes below zero', async () => {
    const h = await harness();
    // One member feeds the insurance fund with what is left of liquidated margins, another gaps through.
    const members = [];
    for (let i = 0; i < 6; i++) members.push(await contractMember(h, '200'));
    for (const m of members) {
      const res = await m.call('/api/order/place', {
        symbol: 'BTC/USDT',
        market: 'contract',
        side: members.indexOf(m) % 2 ? 'open_short' : 'open_long',
        volume: '0.02',
        leverage: 100,
        marginMode: 'isolated',
      });
      expect(res.code).toBe(0);
    }
    await h.advance(3 * 86_400_000);
    for (const m of members) {
      expect(await h.balance(acct.user(m.id, 'contract'))).toBeGreaterThanOrEqual(0n);
      expect(await h.balance(acct.frozen(m.id, 'contract'))).toBeGreaterThanOrEqual(0n);
    }
    const entries = (await h.store.scan(journal.name)) as JournalEntry[];
    const liquidations = entries.filter((e) => e.kind === 'contract:liquidation');
    expect(liquidations.length).toBeGreaterThan(0);
    const fundIn = entries.filter((e) => e.kind === 'insurance:clearance').length;
    const fundOut = entries.filter((e) => e.kind === 'insurance:cover').length;
    expect(fundIn + fundOut).toBeGreaterThan(0);
    expect(await h.balance(INSURANCE)).toBeGreaterThanOrEqual(0n);
    expect(await h.invariants()).toEqual([]);
  });
  it('K13 worked: a 100x long closed 2% under its entry loses only its margin; the insurance fund pays the rest, or the house is deleveraged when the fund is empty', async () => {
    for (const funded of [true, false]) {
      const h = await harness();
      const m = await contractMember(h, '1000');
      await m.call('/api/order/place', {
        symbol: 'BTC/USDT',
        market: 'contract',
        side: 'open_long',
        volume: '0.01',
        leverage: 100,
        marginMode: 'isolated',
      });
      const [p] = (await h.store.scan('positions')) as PositionRow[];
      const entry = BigInt(p!.entryPrice);
      const sim = marketFor(h.rt.seed);
      let at = h.clock.now();
      while (markPrice(sim, BTC, at) * 100n > entry * 98n) at += 60_000;
      if (funded) {
        await h.rt.unitAt(h.clock.now(), async (ctx) => {
          await ctx.ledger.move(acct.world('TEST'), INSURANCE, units(100), { kind: 'test', ref: 'fund' });
        });
      }
      const houseBefore = await h.balance(acct.house('market'));
      await h.rt.unitAt(at, async (ctx) => liquidate(ctx, p!, at));
      const margin = BigInt(p!.margin);
      const loss = (entry * 10_000n - contractWalkValue(h.rt.seed, at)) / units(1);
      expect(loss).toBeGreaterThan(margin);
      // The member loses exactly the margin, never more.
      expect(await h.balance(acct.frozen(m.id, 'contract'))).toBe(0n);
      expect(await h.balance(acct.user(m.id, 'contract'))).toBe(units(1000) - margin - feeOf(p!));
      const houseGain = (await h.balance(acct.house('market'))) - houseBefore;
      if (funded) {
        expect(await h.balance(INSURANCE)).toBe(units(100) - (loss - margin));
        expect(houseGain).toBe(loss);
      } else {
        expect(await h.balance(INSURANCE)).toBe(0n);
        expect(houseGain).toBe(margin);
      }
      expect(await h.invariants()).toEqual([]);
    }
  });
  it('K12 K13 funding that would take everything behind a position liquidates it at that funding time instead', async () => {
    const h = await harness();
    const m = await contractMember(h, '1000');
    await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'open_long',
      volume: '0.01',
      leverage: 100,
      marginMode: 'isolated',
    });
    // Sixty days of funding at about 0.01% each time (1.8% of the notional) against a 1% margin, settled
    // without the price watch so that only funding can exhaust it.
    const from = h.clock.now();
    await h.rt.unitAt(from + 60 * 86_400_000, (ctx) =>
      settleFunding(ctx, { from, to: from + 60 * 86_400_000 }),
    );
    const [p] = (await h.store.scan('positions')) as PositionRow[];
    expect(p!.status).toBe('liquidated');
    expect(BigInt(p!.fundingPaid ?? '0')).toBeGreaterThan(0n);
    expect(await h.balance(acct.frozen(m.id, 'contract'))).toBe(0n);
    expect(await h.balance(acct.user(m.id, 'contract'))).toBeGreaterThanOrEqual(0n);
    expect(await h.invariants()).toEqual([]);
  });
});
