/**
 * Position risk (docs/RULES.md K2-K4, K7, K11, K13): mark prices, what backs a position, its maintenance
 * margin and liquidation price by risk tier, the liquidation itself, and the unrealised PnL that the
 * contract account's valuation includes. Everything is valued at the mark price (mark.ts), never the last
 * traded price, so one print cannot liquidate.
 */
import type { Ctx } from '../context';
import { acct } from '../ledger';
import { marketOf } from '../market/instance';
import { findSymbol } from '../market/symbols';
import type { Micro } from '../money';
import { contractWalk, pnlOfWalk } from './contracts';
import { HOUSE, settlePnl } from './settlement';
import { bandOf, maintenanceAt, unrealisedTotalAt, type PositionAtMark } from './position-figures';
import { shownLiquidation, type LiquidationBand } from './margin';
import { openPositions, positions, type PositionRow } from './tables';

/** The insurance fund: takes what is left of a liquidated margin, pays losses beyond it (K13). */
export const INSURANCE = acct.platform('insurance');

export function markOf(ctx: Pick<Ctx, 'now' | 'counterparties'>, symbol: string, at = ctx.now): Micro {
  const spec = findSymbol(symbol);
  if (!spec) return 0n;
  return marketOf(ctx).markPrice(spec, at);
}

/** Maintenance margin of a position at `mark`, by the risk tier of its mark notional (K10). */
export function maintenanceOf(ctx: Pick<Ctx, 'config'>, position: PositionRow, mark: Micro): Micro {
  return maintenanceAt(
    { symbol: position.symbol, volume: BigInt(position.volume) },
    mark,
    ctx.config.riskTiers,
  );
}

export function atMark(p: PositionRow): PositionAtMark {
  return {
    id: p.id,
    symbol: p.symbol,
    side: p.side,
    marginMode: p.marginMode,
    volume: BigInt(p.volume),
    entryPrice: BigInt(p.entryPrice),
    margin: BigInt(p.margin),
  };
}

/**
 * The prices at which an open position's pair liquidates, below and above (position-figures.ts bandOf),
 * with `all` the member's positions, and the price shown for it.
 */
export async function liquidationBandOf(
  ctx: Ctx,
  position: PositionRow,
  all: readonly PositionRow[],
): Promise<{ band: LiquidationBand; shown: Micro | null }> {
  const available =
    position.marginMode === 'isolated'
      ? 0n
      : await ctx.ledger.balance(acct.user(position.memberId, 'contract'));
  const { band, legs } = bandOf(
    atMark(position),
    all.filter((p) => p.status === 'open').map(atMark),
    available,
    (symbol) => markOf(ctx, symbol),
    ctx.config.riskTiers,
  );
  return { band, shown: shownLiquidation(band, legs, markOf(ctx, position.symbol)) };
}

/** Closes a position against the contract book at `at` (every level, no band); the rest at `mark`. */
function closingPnl(ctx: Ctx, position: PositionRow, at: number, mark: Micro): Micro {
  const spec = findSymbol(position.symbol);
  const q = BigInt(position.volume);
  const entry = BigInt(position.entryPrice);
  const walk = spec
    ? contractWalk(ctx, spec, position.side === 'long' ? 'sell' : 'buy', q, 10_000, at)
    : { fills: [], quantity: 0n, valueScaled: 0n, stop: 'book' as const };
  const rest = q - walk.quantity;
  return (
    pnlOfWalk(position.side, entry, walk) +
    pnlOfWalk(position.side, entry, { quantity: rest, valueScaled: rest * mark })
  );
}

/**
 * Settles a liquidation's net PnL against what backs it (`backing`, already released to the contract
 * account's free balance) and returns the member's realised result. A profit (the price came back by the
 * fill) is the member's. A loss is paid from the backing; a loss beyond it is covered by the insurance fund
 * (only that true shortfall), and beyond the fund house:market, the profitable counterparty, is
 * deleveraged: it receives only what there is. What is left of the backing, up to `clearance`, goes to the
 * insurance fund as the clearance fee.
 */
async function settleLiquidation(
  ctx: Ctx,
  memberId: string,
  pnl: Micro,
  backing: Micro,
  clearance: Micro,
  ref: string,
): Promise<Micro> {
  const contract = acct.user(memberId, 'contract');
  if (pnl >= 0n) return settlePnl(ctx, memberId, pnl, 0n, ref);
  const loss = -pnl;
  const paid = loss < backing ? loss : backing;
  if (paid > 0n) await ctx.ledger.move(contract, HOUSE, paid, { kind: 'contract:liquidation', ref });
  const shortfall = loss - paid;
  if (shortfall > 0n) {
    const fund = await ctx.ledger.balance(INSURANCE);
    const cover = shortfall < fund ? shortfall : fund;
    if (cover > 0n) await ctx.ledger.move(INSURANCE, HOUSE, cover, { kind: 'insurance:cover', ref });
  }
  const left = backing - paid;
  const toFund = left < clearance ? left : clearance;
  if (toFund > 0n) await ctx.ledger.move(contract, INSURANCE, toFund, { kind: 'insurance:clearance', ref });
  return -(paid + toFund);
}

/**
 * Liquidates at `at`, the moment the mark reached the liquidation price (watch.ts), at that moment's book
 * and mark: an isolated position alone, on its margin (what is left of it is the clearance fee); a cross
 * position with the whole cross account (liquidateCross). The position records `at` as its close time and
 * `trigger` (default the mark) as the price it was liquidated at. A member balance never goes below zero.
 */
export async function liquidate(
  ctx: Ctx,
  position: PositionRow,
  at: number = ctx.now,
  trigger: Micro | null = null,
): Promise<void> {
  if (position.marginMode === 'cross') {
    await liquidateCross(
      ctx,
      position.memberId,
      at,
      trigger === null ? undefined : { [position.symbol]: trigger },
    );
    return;
  }
  const mark = markOf(ctx, position.symbol, at);
  const pnl = closingPnl(ctx, position, at, mark);
  const margin = BigInt(position.margin);
  await ctx.ledger.release(position.holdId);
  const ref = `position:${position.id}:liquidation`;
  const realised = await settleLiquidation(ctx, position.memberId, pnl, margin, margin, ref);
  closeLiquidated(ctx, position, at, realised, trigger ?? mark);
}

function closeLiquidated(ctx: Ctx, position: PositionRow, at: number, realised: Micro, price: Micro): void {
  ctx.tx.put(positions, {
    ...position,
    status: 'liquidated',
    closedAt: at,
    realisedPnl: (BigInt(position.realisedPnl) + realised).toString(),
    liquidationPrice: price.toString(),
  });
  ctx.emit({
    type: 'position',
    data: { memberId: position.memberId, id: position.id, status: 'liquidated' },
  });
}

/**
 * Liquidates a member's cross account at `at`: every cross position is closed together against the book
 * of that moment (a hedged long and short net out), and the account pays the net loss from its whole
 * wallet balance (free USDT and every cross margin, none left frozen); the insurance fund covers only what
 * the wallet cannot; what is left, up to the account's maintenance margin, is the clearance fee. Each
 * position's realised PnL is its own close plus its share (by maintenance margin) of the cap and the fee.
 */
export async function liquidateCross(
  ctx: Ctx,
  memberId: string,
  at: number,
  prices: Readonly<Record<string, Micro>> = {},
): Promise<void> {
  const cross = (await openPositions(ctx, memberId))
    .filter((p) => p.marginMode === 'cross')
    .sort((a, b) => Number(a.id) - Number(b.id));
  if (cross.length === 0) return;
  const closes = cross.map((p) => {
    const mark = markOf(ctx, p.symbol, at);
    return { p, mark, pnl: closingPnl(ctx, p, at, mark), mm: maintenanceOf(ctx, p, mark) };
  });
  for (const p of cross) await ctx.ledger.release(p.holdId);
  const wallet = await ctx.ledger.balance(acct.user(memberId, 'contract'));
  const pnl = closes.reduce((sum, c) => sum + c.pnl, 0n);
  const mm = closes.reduce((sum, c) => sum + c.mm, 0n);
  const ref = `cross:${memberId}:liquidation:${at}`;
  const realised = await settleLiquidation(ctx, memberId, pnl, wallet, mm, ref);
  // The cap and the fee, shared by maintenance margin (the last position takes the rounding).
  const adjustment = realised - pnl;
  let shared = 0n;
  for (const [i, c] of closes.entries()) {
    const share = i === closes.length - 1 ? adjustment - shared : mm > 0n ? (adjustment * c.mm) / mm : 0n;
    shared += share;
    closeLiquidated(ctx, c.p, at, c.pnl + share, prices[c.p.symbol] ?? c.mark);
  }
}

/** Unrealised PnL of a member's open positions at the mark, for the contract account's valuation. */
export async function unrealisedTotal(ctx: Ctx, memberId: string): Promise<Micro> {
  return unrealisedTotalAt((await openPositions(ctx, memberId)).map(atMark), (symbol) => markOf(ctx, symbol));
}
