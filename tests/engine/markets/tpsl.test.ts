/**
 * Take-profit, stop-loss and partial close (issue 26 item 2; docs/TRADING.md "Take-profit and stop-loss",
 * RULES.md K15-K17): set with the opening order or on an open position, refused on the wrong side of the
 * mark (4038, 4039) with nothing written, fired by the watch at the first second the mark reaches them
 * whatever the clock's step, recorded as a close with its reason; a partial close leaves the rest open with
 * its triggers. Every ledger entry balanced.
 */
import { describe, expect, it } from 'vitest';

import { acct } from '../../../engine/ledger/accounts';

import { marketFor } from '../../../engine/market/instance';

import { simulatedSource } from '../../../engine/market/source';

import { findSymbol } from '../../../engine/market/symbols';

import { formatAmount, mulDiv, parseAmount } from '../../../engine/money';

import { positions as positionsTable, type PositionRow } from '../../../engine/trading/tables';

import type { OrderView, PositionView } from '../../../engine/trading/views';
import { pathMark } from '../../../engine/trading/watch';

import { harness, type Harness, type Member, type OrderBody, type Side } from './harness';

const BTC = findSymbol('BTC')!;
const HOUR = 3_600_000;
const order = (side: Side, volume: string, extra: Partial<OrderBody> = {}): OrderBody => ({
  symbol: 'BTC/USDT',
  market: 'contract',
  side,
  type: 'market',
  volume,
  ...extra,
});

async function positionsOf(m: Member): Promise<PositionView[]> {
  return (await m.call('/api/position/list')).data.list;
}

async function funded(cash = '10000') {
  const h = await harness();
  const m = await h.member({ cash });
  expect((await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: cash })).code).toBe(
    0,
  );
  return { h, m };
}

/** `mark` moved by `ppm` parts per million, as a wire price. */
const moved = (mark: string, ppm: bigint) =>
  formatAmount(mulDiv(parseAmount(mark), 1_000_000n + ppm, 1_000_000n, 'floor'));

async function row(h: Harness, id: string): Promise<PositionRow> {
  return (await h.store.get(positionsTable.name, id)) as PositionRow;
}

async function closes(m: Member): Promise<OrderView[]> {
  const list = (await m.call('/api/order/list', { market: 'contract', limit: 100 })).data;
  return list.list.filter((o) => o.side.startsWith('close_'));
}

/** Opens a 0.02 BTC isolated 10x long with a take-profit 0.3% above the mark and a stop-loss 0.3% below. */
async function bracketed(h: Harness, m: Member, side: 'open_long' | 'open_short' = 'open_long') {
  const mark = formatAmount(simulatedSource(marketFor(h.rt.seed)).markPrice(BTC, h.clock.now()));
  const long = side === 'open_long';
  const takeProfit = moved(mark, long ? 3_000n : -3_000n);
  const stopLoss = moved(mark, long ? -3_000n : 3_000n);
  const res = await m.call(
    '/api/order/place',
    order(side, '0.02', { leverage: 10, marginMode: 'isolated', takeProfit, stopLoss }),
  );
  expect(res.code).toBe(0);
  return { takeProfit, stopLoss, opened: res.data };
}

describe('take-profit and stop-loss', () => {
  it('K15 a long opened with both shows them, and the first price the mark reaches closes it at that second with its reason', async () => {
    const { h, m } = await funded();
    const { takeProfit, stopLoss, opened } = await bracketed(h, m);
    const [p] = await positionsOf(m);
    expect(p).toMatchObject({ takeProfit, stopLoss });
    let closed: PositionRow | undefined;
    for (let i = 0; i < 96 && !closed; i++) {
      await h.advance(HOUR);
      const r = await row(h, opened.positionId!);
      if (r.status !== 'open') closed = r;
    }
    expect(closed?.status).toBe('closed');
    const at = closed!.closedAt!;
    const source = simulatedSource(marketFor(h.rt.seed));
    const tp = parseAmount(takeProfit);
    const sl = parseAmount(stopLoss);
    const hit = pathMark(source, BTC, at);
    const before = pathMark(source, BTC, at - 1_000);
    const [close] = await closes(m);
    expect(close!.trigger).toBe(hit >= tp ? 'take_profit' : 'stop_loss');
    expect(hit >= tp || hit <= sl).toBe(true);
    // The second before, the mark was still between the two.
    expect(before < tp && before > sl).toBe(true);
    expect(close!.time).toBe(Math.floor(at / 1000));
    expect(close!.volume).toBe('0.02');
    expect(await positionsOf(m)).toEqual([]);
    expect(await h.balance(acct.frozen(m.id, 'contract'))).toBe(0n);
    expect(await h.invariants()).toEqual([]);
  });

  it('K15 a gap of two days closes at the same second, with the same money, as steps of five minutes', async () => {
    const run = async (step: number) => {
      const { h, m } = await funded();
      const { opened } = await bracketed(h, m, 'open_short');
      for (let t = 0; t < 2 * 24 * HOUR; t += step) await h.advance(step);
      const r = await row(h, opened.positionId!);
      const [close] = await closes(m);
      expect(await h.invariants()).toEqual([]);
      return {
        status: r.status,
        closedAt: r.closedAt,
        pnl: r.realisedPnl,
        trigger: close?.trigger,
        cash: await h.balance(acct.user(m.id, 'contract')),
      };
    };
    const once = await run(2 * 24 * HOUR);
    expect(once.status).toBe('closed');
    expect(['take_profit', 'stop_loss']).toContain(once.trigger);
    expect(await run(5 * 60_000)).toEqual(once);
  });

  it('K16 set on an open position through /api/position/tpsl, changed, removed with null; a removed one never fires', async () => {
    const { h, m } = await funded();
    const res = await m.call(
      '/api/order/place',
      order('open_long', '0.02', { leverage: 10, marginMode: 'cross' }),
    );
    const id = res.data.positionId!;
    const [p] = await positionsOf(m);
    expect(p).toMatchObject({ takeProfit: null, stopLoss: null });
    const tp = moved(p!.markPrice, 2_000n);
    const set = await m.call('/api/position/tpsl', { id, takeProfit: tp });
    expect(set.code).toBe(0);
    expect(set.data).toEqual({ id, takeProfit: tp, stopLoss: null });
    const sl = moved(p!.markPrice, -900_000n);
    expect((await m.call('/api/position/tpsl', { id, stopLoss: sl })).data).toEqual({
      id,
      takeProfit: tp,
      stopLoss: sl,
    });
    expect((await m.call('/api/position/tpsl', { id, takeProfit: null, stopLoss: null })).data).toEqual({
      id,
      takeProfit: null,
      stopLoss: null,
    });
    await h.advance(3 * 24 * HOUR);
    expect((await row(h, id)).status).toBe('open');
    expect(await closes(m)).toEqual([]);
    expect(await h.invariants()).toEqual([]);
  });

  it('K17 4038/4039: a trigger on the wrong side of the mark, or zero, is refused and nothing is written', async () => {
    const { h, m } = await funded();
    const mark = formatAmount(simulatedSource(marketFor(h.rt.seed)).markPrice(BTC, h.clock.now()));
    const cash = await h.balance(acct.user(m.id, 'contract'));
    const refusals: Array<[Side, Partial<OrderBody>, number]> = [
      ['open_long', { takeProfit: moved(mark, -1_000n) }, 4038],
      ['open_long', { takeProfit: '0' }, 4038],
      ['open_short', { takeProfit: moved(mark, 1_000n) }, 4038],
      ['open_long', { stopLoss: moved(mark, 1_000n) }, 4039],
      ['open_short', { stopLoss: moved(mark, -1_000n) }, 4039],
      ['open_short', { stopLoss: '0' }, 4039],
    ];
    for (const [side, extra, code] of refusals) {
      const res = await m.call('/api/order/place', order(side, '0.01', { leverage: 20, ...extra }));
      expect(res.code, `${side} ${JSON.stringify(extra)}`).toBe(code);
      // A refusal's data is its detail (the mark), not the order.
      expect(res.data).toMatchObject({ markPrice: mark });
    }
    // Nothing written: no position, no fee, and the leverage the refused orders carried was not saved.
    expect(await positionsOf(m)).toEqual([]);
    expect(await h.balance(acct.user(m.id, 'contract'))).toBe(cash);
    expect((await m.call('/api/position/settings', {})).data.leverage).toBe(10);
    // Triggers go with an opening order only.
    expect((await m.call('/api/order/place', order('close_long', '0.01', { stopLoss: '1' }))).code).toBe(400);
    // On an open position: the same codes, 404 for a position not the member's or not open, 400 for nothing.
    const id = (await m.call('/api/order/place', order('open_short', '0.01'))).data.positionId!;
    expect((await m.call('/api/position/tpsl', { id, takeProfit: moved(mark, 50_000n) })).code).toBe(4038);
    expect((await m.call('/api/position/tpsl', { id, stopLoss: moved(mark, -50_000n) })).code).toBe(4039);
    expect((await m.call('/api/position/tpsl', { id })).code).toBe(400);
    expect((await m.call('/api/position/tpsl', { id, takeProfit: '-5' })).code).toBe(400);
    const other = await h.member({ cash: '0' });
    expect((await other.call('/api/position/tpsl', { id, takeProfit: null })).code).toBe(404);
    expect((await m.call('/api/position/tpsl', { id: '999999', takeProfit: null })).code).toBe(404);
    const untouched = await row(h, id);
    expect([untouched.takeProfit ?? null, untouched.stopLoss ?? null]).toEqual([null, null]);
    expect(await h.invariants()).toEqual([]);
  });
});

describe('partial close', () => {
  it('K8 a close of part of a position keeps the rest open with its margin share and its triggers; more than the position is refused', async () => {
    const { h, m } = await funded();
    const { takeProfit, stopLoss, opened } = await bracketed(h, m);
    const id = opened.positionId!;
    const margin = parseAmount((await positionsOf(m))[0]!.margin);
    expect((await m.call('/api/order/place', order('close_long', '0.03'))).code).toBe(400);
    const part = await m.call('/api/order/place', order('close_long', '0.005'));
    expect(part.code).toBe(0);
    expect(part.data.trigger).toBeNull();
    const [rest] = await positionsOf(m);
    expect(rest).toMatchObject({ id, volume: '0.015', takeProfit, stopLoss });
    // The closed quarter's margin is released (rounded down), the rest stays frozen.
    expect(parseAmount(rest!.margin)).toBe(margin - mulDiv(margin, 5_000n, 20_000n, 'floor'));
    expect(await h.balance(acct.frozen(m.id, 'contract'))).toBe(parseAmount(rest!.margin));
    expect(await h.invariants()).toEqual([]);
  });
});
