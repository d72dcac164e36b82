/**
 * The `trading.watch` hook: once a second (and once for a whole gap) it fills resting spot limit orders whose
 * price was touched and liquidates at the first whole second of the window at which the margin balance met
 * the maintenance margin, at that second's book and mark, settling funding times inside the window in order,
 * so a gap gives the result of small steps (S4, K7). docs/TRADING.md "Liquidation as an event in time".
 */
import type { Ctx } from '../context';
import { acct } from '../ledger';
import type { MarketSource } from '../market/source';
import { findSymbol, type SymbolSpec } from '../market/symbols';
import { mulDiv, PPM, type Micro } from '../money';
import { settleFunding } from './funding';
import { FUNDING_INTERVAL_MS } from './mark';
import { cushionAt, type PositionAtMark } from './position-figures';
import { atMark, liquidate, liquidateCross } from './risk';
import { fillResting } from './spot';
import { closePosition } from './contracts';
import { orders, positions, type CloseTrigger, type PositionRow } from './tables';
import { triggersOf } from './triggers';

const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
/**
 * How far the mark may stand from the index (parts per million) in the hourly pre-check: the mark is the
 * median of the index with the funding basis (at most 0.75%), the 30-minute average basis and the last
 * price (the premium), so 3% is a wide bound. Only a filter: an hour that might reach the price is checked
 * minute by minute and second by second with the real mark.
 */
const MARK_SLACK_PPM = 30_000n;

/** Positions liquidated together and what backs them: one isolated position, or a cross account. */
interface Unit {
  memberId: string;
  cross: boolean;
  rows: PositionRow[];
  positions: PositionAtMark[];
  backing: Micro;
  specs: SymbolSpec[];
  /** The latest opening among the positions: nothing before it is checked. */
  since: number;
}

export async function watchMarkets(ctx: Ctx, window: { from: number; to: number }): Promise<void> {
  const market = ctx.counterparties.market;
  if (!market) return;
  await fillOrders(ctx, market, window);
  // Funding times strictly inside the window are settled where they fall; one at its end is the funding
  // hook's, which runs after this one, as it would after a window that ended there.
  let from = window.from;
  const firstFunding = Math.floor(from / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS + FUNDING_INTERVAL_MS;
  for (let at = firstFunding; at < window.to; at += FUNDING_INTERVAL_MS) {
    await liquidations(ctx, market, from, at);
    await settleFunding(ctx, { from: at - 1, to: at });
    from = at;
  }
  await liquidations(ctx, market, from, window.to);
}

async function fillOrders(ctx: Ctx, market: MarketSource, window: { from: number; to: number }) {
  for (const order of await ctx.tx.query(orders, 'open', 'spot')) {
    const spec = findSymbol(order.symbol);
    if (!spec || order.price === null) continue;
    // A stale index is no price to fill at: the order waits until prices are fresh again.
    if (market.status(spec, ctx.now).stale) continue;
    const range = market.extremes(spec, Math.max(window.from, order.createdAt), window.to);
    const limit = Number(order.price);
    const touched = order.side === 'buy' ? range.low <= limit : range.high >= limit;
    if (touched) {
      await fillResting(ctx, order, spec.base);
      ctx.emit({ type: 'order', data: { memberId: order.memberId, id: order.id, status: 'filled' } });
    }
  }
}

async function liquidations(ctx: Ctx, market: MarketSource, from: number, to: number): Promise<void> {
  if (to <= from) return;
  const open = await ctx.tx.query(positions, 'open', 'open');
  const members = [...new Set(open.map((p) => p.memberId))].sort(
    (a, b) => Number(a) - Number(b) || (a < b ? -1 : 1),
  );
  for (const memberId of members) await liquidateMember(ctx, market, memberId, from, to);
}

async function unitsOf(ctx: Ctx, memberId: string): Promise<Unit[]> {
  const open = (await ctx.tx.query(positions, 'member', memberId))
    .filter((p) => p.status === 'open')
    .sort((a, b) => Number(a.id) - Number(b.id));
  const units: Unit[] = [];
  const make = (rows: PositionRow[], cross: boolean, backing: Micro): Unit => ({
    memberId,
    cross,
    rows,
    positions: rows.map(atMark),
    backing,
    specs: [...new Set(rows.map((r) => r.symbol))].flatMap((s) => findSymbol(s) ?? []),
    since: Math.max(...rows.map((r) => r.openedAt)),
  });
  for (const p of open) if (p.marginMode === 'isolated') units.push(make([p], false, BigInt(p.margin)));
  const cross = open.filter((p) => p.marginMode === 'cross');
  if (cross.length > 0) {
    const free = await ctx.ledger.balance(acct.user(memberId, 'contract'));
    const wallet = cross.reduce((sum, p) => sum + BigInt(p.margin), free);
    units.push(make(cross, true, wallet));
  }
  return units;
}

/**
 * Liquidates a member's isolated positions and cross account in the order their moments came: a cross
 * account is looked at again after each earlier liquidation (a gap can close an isolated position at a
 * profit, which adds to the cross wallet).
 */
async function liquidateMember(ctx: Ctx, market: MarketSource, memberId: string, from: number, to: number) {
  let cursor = from;
  for (;;) {
    let next: { at: number; unit: Unit } | null = null;
    for (const unit of await unitsOf(ctx, memberId)) {
      // Liquidations pause while a pair's index is stale (docs/TRADING.md "When prices are stale"): never
      // on a price nobody can trade at. They resume with the first fresh prices.
      if (unit.specs.some((spec) => market.status(spec, ctx.now).stale)) continue;
      const at = firstBreach(ctx, market, unit, Math.max(cursor, unit.since), next ? next.at : to);
      if (at !== null && (next === null || at < next.at)) next = { at, unit };
    }
    // A take-profit or stop-loss the mark reaches first (or at the same second) closes its position before
    // the liquidation it may prevent.
    const hit = await firstTriggerOf(ctx, market, memberId, cursor, next ? next.at : to);
    if (hit && (next === null || hit.at <= next.at)) {
      await closePosition(ctx, memberId, {
        spec: hit.spec,
        side: hit.row.side,
        volume: null,
        at: hit.at,
        trigger: hit.kind,
      });
      ctx.emit({ type: 'position', data: { memberId, id: hit.row.id, status: 'closed' } });
      cursor = hit.at;
      continue;
    }
    if (!next) return;
    const { at, unit } = next;
    const prices = Object.fromEntries(unit.specs.map((spec) => [spec.symbol, pathMark(market, spec, at)]));
    if (unit.cross) await liquidateCross(ctx, memberId, at, prices);
    else await liquidate(ctx, unit.rows[0]!, at, prices[unit.rows[0]!.symbol] ?? null);
    cursor = at;
  }
}

/** The mark/index ratio at the start of the minute that second `s` ends: [mark, index]. */
function ratioOf(market: MarketSource, spec: SymbolSpec, s: number): [Micro, Micro] {
  const minute = Math.floor((s - 1) / MINUTE) * MINUTE;
  const index = market.indexPrice(spec, minute);
  return [market.markPrice(spec, minute), index > 0n ? index : 1n];
}

/** The mark's path at whole second `s`: the index at s times its minute's mark/index ratio. */
export function pathMark(market: MarketSource, spec: SymbolSpec, s: number): Micro {
  const [mark, index] = ratioOf(market, spec, s);
  return mulDiv(BigInt(market.price(spec, s)), mark, index, 'half-up');
}

/**
 * The least cushion (cushionAt) the unit can have for marks anywhere in the ranges: margin balance less
 * maintenance is concave in each pair's price (maintenance rates grow with the notional), so each pair's
 * least is at one end of its range.
 */
function leastCushion(ctx: Ctx, unit: Unit, ranges: ReadonlyMap<string, readonly [Micro, Micro]>): Micro {
  let total = unit.backing;
  for (const spec of unit.specs) {
    const legs = unit.positions.filter((p) => p.symbol === spec.symbol);
    const [low, high] = ranges.get(spec.symbol)!;
    const at = (price: Micro) => cushionAt(legs, 0n, () => price, ctx.config.riskTiers);
    const a = at(low);
    const b = at(high);
    total += a < b ? a : b;
  }
  return total;
}

/**
 * The first whole second in (from, to] at which the unit's cushion at the mark path is at or below zero,
 * or null. Hours whose index range, widened by MARK_SLACK_PPM, cannot get there are skipped; then minutes
 * by their range at the minute's ratio; then the seconds of a minute that might.
 */
function firstBreach(ctx: Ctx, market: MarketSource, unit: Unit, from: number, to: number): number | null {
  if (to <= from || unit.specs.length === 0) return null;
  const ranges = (
    a: number,
    b: number,
    scale: (spec: SymbolSpec, low: Micro, high: Micro) => [Micro, Micro],
  ) =>
    new Map(
      unit.specs.map((spec) => {
        const r = market.extremes(spec, a, b);
        return [spec.symbol, scale(spec, BigInt(r.low), BigInt(r.high))] as const;
      }),
    );
  const widened = (_: SymbolSpec, low: Micro, high: Micro): [Micro, Micro] => [
    mulDiv(low, PPM - MARK_SLACK_PPM, PPM, 'floor'),
    mulDiv(high, PPM + MARK_SLACK_PPM, PPM, 'ceil'),
  ];
  for (let h = Math.floor(from / HOUR) * HOUR; h < to; h += HOUR) {
    const a = Math.max(from, h);
    const b = Math.min(to, h + HOUR);
    if (leastCushion(ctx, unit, ranges(a, b, widened)) > 0n) continue;
    for (let m = Math.floor(a / MINUTE) * MINUTE; m < b; m += MINUTE) {
      const a2 = Math.max(a, m);
      const b2 = Math.min(b, m + MINUTE);
      const atRatio = (spec: SymbolSpec, low: Micro, high: Micro): [Micro, Micro] => {
        const [mark, index] = ratioOf(market, spec, b2);
        return [mulDiv(low, mark, index, 'floor'), mulDiv(high, mark, index, 'ceil')];
      };
      if (leastCushion(ctx, unit, ranges(a2, b2, atRatio)) > 0n) continue;
      for (let s = Math.floor(a2 / SECOND) * SECOND + SECOND; s <= b2; s += SECOND) {
        const marks = new Map(unit.specs.map((spec) => [spec.symbol, pathMark(market, spec, s)]));
        const cushion = cushionAt(
          unit.positions,
          unit.backing,
          (symbol) => marks.get(symbol) ?? 0n,
          ctx.config.riskTiers,
        );
        if (cushion <= 0n) return s;
      }
    }
  }
  return null;
}

/**
 * The member's first take-profit or stop-loss the mark path reaches in (from, to]: the position, the second
 * and which of the two. A position's triggers are looked at only from when they were set; none on a stale
 * pair (as liquidations).
 */
async function firstTriggerOf(
  ctx: Ctx,
  market: MarketSource,
  memberId: string,
  from: number,
  to: number,
): Promise<{ row: PositionRow; spec: SymbolSpec; at: number; kind: CloseTrigger } | null> {
  const open = (await ctx.tx.query(positions, 'member', memberId))
    .filter((p) => p.status === 'open' && (p.takeProfit || p.stopLoss))
    .sort((a, b) => Number(a.id) - Number(b.id));
  let best: { row: PositionRow; spec: SymbolSpec; at: number; kind: CloseTrigger } | null = null;
  for (const row of open) {
    const spec = findSymbol(row.symbol);
    if (!spec || market.status(spec, ctx.now).stale) continue;
    const found = firstTrigger(
      market,
      spec,
      row,
      Math.max(from, row.triggersSetAt ?? row.openedAt),
      best?.at ?? to,
    );
    if (found && (best === null || found.at < best.at)) best = { row, spec, ...found };
  }
  return best;
}

/**
 * The first whole second in (from, to] at which the mark path reaches the position's take-profit or
 * stop-loss: hours whose widened index range cannot reach either are skipped, then minutes by their range at
 * the minute's ratio, then seconds, as firstBreach.
 */
function firstTrigger(
  market: MarketSource,
  spec: SymbolSpec,
  row: PositionRow,
  from: number,
  to: number,
): { at: number; kind: CloseTrigger } | null {
  if (to <= from) return null;
  const { takeProfit, stopLoss } = triggersOf(row);
  const long = row.side === 'long';
  // Fires when the mark is at or above `up`, or at or below `down`.
  const up = long ? takeProfit : stopLoss;
  const down = long ? stopLoss : takeProfit;
  const upKind: CloseTrigger = long ? 'take_profit' : 'stop_loss';
  const downKind: CloseTrigger = long ? 'stop_loss' : 'take_profit';
  const reaches = (low: Micro, high: Micro) => (up !== null && high >= up) || (down !== null && low <= down);
  for (let h = Math.floor(from / HOUR) * HOUR; h < to; h += HOUR) {
    const a = Math.max(from, h);
    const b = Math.min(to, h + HOUR);
    const r = market.extremes(spec, a, b);
    const low = mulDiv(BigInt(r.low), PPM - MARK_SLACK_PPM, PPM, 'floor');
    const high = mulDiv(BigInt(r.high), PPM + MARK_SLACK_PPM, PPM, 'ceil');
    if (!reaches(low, high)) continue;
    for (let m = Math.floor(a / MINUTE) * MINUTE; m < b; m += MINUTE) {
      const a2 = Math.max(a, m);
      const b2 = Math.min(b, m + MINUTE);
      const [mark, index] = ratioOf(market, spec, b2);
      const r2 = market.extremes(spec, a2, b2);
      if (
        !reaches(mulDiv(BigInt(r2.low), mark, index, 'floor'), mulDiv(BigInt(r2.high), mark, index, 'ceil'))
      ) {
        continue;
      }
      for (let s = Math.floor(a2 / SECOND) * SECOND + SECOND; s <= b2; s += SECOND) {
        const at = pathMark(market, spec, s);
        if (up !== null && at >= up) return { at: s, kind: upKind };
        if (down !== null && at <= down) return { at: s, kind: downKind };
      }
    }
  }
  return null;
}
