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

function atMark(p: PositionRow): PositionAtMark {
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

/**
 * Liquidates a position whose mark reached its liquidation price at `at`: it is closed against the
 * contract book of that moment (every level, no price band; anything the book cannot take is taken by house:market at the mark). The
 * member loses at most what backs the position: isolated, its whole margin; cross, the loss and the
 * position's maintenance margin as the clearance fee, capped by the account. What the member pays beyond
 * the loss goes to the insurance fund; a loss beyond what the member has is paid by the insurance fund;
 * if the fund is empty too, house:market (the profitable counterparty) is deleveraged: it receives only
 * what there is (docs/TRADING.md "Auto-deleveraging"). A member balance never goes below zero.
 */
export async function liquidate(
  ctx: Ctx,
  position: PositionRow,
  at: number = ctx.now,
  trigger: Micro | null = null,
): Promise<void> {
  const mark = markOf(ctx, position.symbol, at);
  const spec = findSymbol(position.symbol);
  const q = BigInt(position.volume);
  const entry = BigInt(position.entryPrice);
  const ref = `position:${position.id}:liquidation`;
  const contract = acct.user(position.memberId, 'contract');
  const walk = spec
    ? contractWalk(ctx, spec, position.side === 'long' ? 'sell' : 'buy', q, 10_000, at)
    : { fills: [], quantity: 0n, valueScaled: 0n, stop: 'book' as const };
  const rest = q - walk.quantity;
  const pnl =
    pnlOfWalk(position.side, entry, walk) +
    pnlOfWalk(position.side, entry, { quantity: rest, valueScaled: rest * mark });
  const maintenance = maintenanceOf(ctx, position, mark);
  await ctx.ledger.release(position.holdId);
  const backing =
    position.marginMode === 'isolated' ? BigInt(position.margin) : await ctx.ledger.balance(contract);
  let realised: Micro;
  if (pnl >= 0n) {
    // Reached through a gap and recovered by the time of the fill: the member keeps the profit.
    realised = await settlePnl(ctx, position.memberId, pnl, 0n, ref);
  } else {
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
    const toFund = position.marginMode === 'isolated' ? left : left < maintenance ? left : maintenance;
    if (toFund > 0n) await ctx.ledger.move(contract, INSURANCE, toFund, { kind: 'insurance:clearance', ref });
    realised = -(paid + toFund);
  }
  ctx.tx.put(positions, {
    ...position,
    status: 'liquidated',
    closedAt: ctx.now,
    realisedPnl: (BigInt(position.realisedPnl) + realised).toString(),
    liquidationPrice: (trigger ?? mark).toString(),
  });
  ctx.emit({
    type: 'position',
    data: { memberId: position.memberId, id: position.id, status: 'liquidated' },
  });
}

/** Unrealised PnL of a member's open positions at the mark, for the contract account's valuation. */
export async function unrealisedTotal(ctx: Ctx, memberId: string): Promise<Micro> {
  return unrealisedTotalAt((await openPositions(ctx, memberId)).map(atMark), (symbol) => markOf(ctx, symbol));
}
