/**
 * Position risk (docs/RULES.md K2-K4, K7): mark prices, what backs a position, its liquidation price, the
 * liquidation itself, and the unrealised PnL that the contract account's valuation includes.
 */
import type { Ctx } from '../context';
import { acct } from '../ledger';
import { marketOf } from '../market/instance';
import { findSymbol } from '../market/symbols';
import type { Micro } from '../money';
import { liquidationPrice, maintenanceMargin, unrealisedPnl } from './margin';
import { HOUSE, settlePnl } from './settlement';
import { positions, type PositionRow } from './tables';

export async function openPositions(ctx: Ctx, memberId: string): Promise<PositionRow[]> {
  return (await ctx.tx.query(positions, 'member', memberId)).filter((p) => p.status === 'open');
}

export function markOf(ctx: Pick<Ctx, 'seed' | 'now' | 'config'>, symbol: string): Micro {
  const spec = findSymbol(symbol);
  if (!spec) return 0n;
  return BigInt(marketOf(ctx).price(spec, ctx.now));
}

/** What backs a position: its margin (isolated), or the account's free balance, all cross margins and the
 * other cross positions' unrealised PnL at the mark (cross). */
export async function backingOf(
  ctx: Ctx,
  position: PositionRow,
  all: readonly PositionRow[],
): Promise<Micro> {
  if (position.marginMode === 'isolated') return BigInt(position.margin);
  let backing = await ctx.ledger.balance(acct.user(position.memberId, 'contract'));
  for (const p of all) {
    if (p.marginMode !== 'cross' || p.status !== 'open') continue;
    backing += BigInt(p.margin);
    if (p.id !== position.id) {
      backing += unrealisedPnl(p.side, BigInt(p.volume), BigInt(p.entryPrice), markOf(ctx, p.symbol));
      backing -= maintenanceMargin(BigInt(p.volume), BigInt(p.entryPrice), ctx.config.maintenanceMarginBps);
    }
  }
  return backing;
}

export async function liquidationPriceOf(
  ctx: Ctx,
  position: PositionRow,
  all: readonly PositionRow[],
): Promise<Micro | null> {
  const q = BigInt(position.volume);
  const entry = BigInt(position.entryPrice);
  const maintenance = maintenanceMargin(q, entry, ctx.config.maintenanceMarginBps);
  return liquidationPrice(position.side, q, entry, await backingOf(ctx, position, all), maintenance);
}

/** Liquidates at `price`: the position's loss at that price, capped by what backs it, goes to the house. */
export async function liquidate(ctx: Ctx, position: PositionRow, price: Micro): Promise<void> {
  const q = BigInt(position.volume);
  const ref = `position:${position.id}:liquidation`;
  let pnl: Micro;
  if (position.marginMode === 'isolated') {
    await ctx.ledger.capture(position.holdId, HOUSE);
    pnl = -BigInt(position.margin);
  } else {
    await ctx.ledger.release(position.holdId);
    const loss = unrealisedPnl(position.side, q, BigInt(position.entryPrice), price);
    pnl = await settlePnl(
      ctx,
      position.memberId,
      loss,
      await ctx.ledger.balance(acct.user(position.memberId, 'contract')),
      ref,
    );
  }
  ctx.tx.put(positions, {
    ...position,
    status: 'liquidated',
    closedAt: ctx.now,
    realisedPnl: (BigInt(position.realisedPnl) + pnl).toString(),
    liquidationPrice: price.toString(),
  });
  ctx.emit({
    type: 'position',
    data: { memberId: position.memberId, id: position.id, status: 'liquidated' },
  });
}

/** Unrealised PnL of a member's open positions, for the contract account's valuation. */
export async function unrealisedTotal(ctx: Ctx, memberId: string): Promise<Micro> {
  let total = 0n;
  for (const p of await openPositions(ctx, memberId)) {
    total += unrealisedPnl(p.side, BigInt(p.volume), BigInt(p.entryPrice), markOf(ctx, p.symbol));
  }
  return total;
}
