/**
 * The `trading.watch` hook: once a second (and, after a gap, once for the whole gap) it fills resting spot
 * limit orders whose price was touched and liquidates positions whose liquidation price was reached, using
 * the lowest and highest traded price of the window, so nothing that happened while the engine was closed
 * is missed (S4, K7). A limit order is only checked from the moment it was placed.
 */
import type { Ctx } from '../context';
import { extremesBetween } from '../market/extremes';
import { marketOf } from '../market/instance';
import { findSymbol } from '../market/symbols';
import { breached } from './margin';
import { fillResting } from './spot';
import { liquidate, liquidationPriceOf, openPositions } from './risk';
import { orders, positions } from './tables';

export async function watchMarkets(ctx: Ctx, window: { from: number; to: number }): Promise<void> {
  const sim = marketOf(ctx);
  for (const order of await ctx.tx.query(orders, 'open', 'spot')) {
    const spec = findSymbol(order.symbol);
    if (!spec || order.price === null) continue;
    const range = extremesBetween(sim.get(spec), Math.max(window.from, order.createdAt), window.to);
    const limit = Number(order.price);
    const touched = order.side === 'buy' ? range.low <= limit : range.high >= limit;
    if (touched) {
      await fillResting(ctx, order, spec.base);
      ctx.emit({ type: 'order', data: { memberId: order.memberId, id: order.id, status: 'filled' } });
    }
  }
  const open = await ctx.tx.query(positions, 'open', 'open');
  for (const position of open.sort((a, b) => Number(a.id) - Number(b.id))) {
    const current = await ctx.tx.get(positions, position.id);
    if (!current || current.status !== 'open') continue;
    const spec = findSymbol(current.symbol);
    if (!spec) continue;
    const all = await openPositions(ctx, current.memberId);
    const liq = await liquidationPriceOf(ctx, current, all);
    const range = extremesBetween(sim.get(spec), Math.max(window.from, current.openedAt), window.to);
    if (breached(current.side, liq, BigInt(range.low), BigInt(range.high)) && liq !== null) {
      await liquidate(ctx, current, liq);
    }
  }
}
