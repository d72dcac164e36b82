/**
 * The `trading.watch` hook: once a second (and, after a gap, once for the whole gap) it fills resting spot
 * limit orders whose price was touched and liquidates positions whose mark reached their liquidation price,
 * using the lowest and highest price of the window, so nothing that happened while the engine was closed
 * is missed (S4, K7). A limit order is only checked from the moment it was placed.
 */
import type { Ctx } from '../context';
import { findSymbol } from '../market/symbols';
import { bandBreached } from './margin';
import { fillResting } from './spot';
import { liquidate, liquidationBandOf, markOf } from './risk';
import { mulDiv } from '../money';
import { openPositions, orders, positions } from './tables';

export async function watchMarkets(ctx: Ctx, window: { from: number; to: number }): Promise<void> {
  const market = ctx.counterparties.market;
  if (!market) return;
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
  const open = await ctx.tx.query(positions, 'open', 'open');
  for (const position of open.sort((a, b) => Number(a.id) - Number(b.id))) {
    const current = await ctx.tx.get(positions, position.id);
    if (!current || current.status !== 'open') continue;
    const spec = findSymbol(current.symbol);
    if (!spec) continue;
    // Liquidations pause while the pair's index is stale (docs/TRADING.md "When prices are stale"): never
    // on a price nobody can trade at. They resume with the first fresh prices.
    if (market.status(spec, ctx.now).stale) continue;
    const all = await openPositions(ctx, current.memberId);
    const { band, shown } = await liquidationBandOf(ctx, current, all);
    if (band.below === null && band.above === null) continue;
    // The mark's extremes over the window: the index's (whole minutes from candles, the edges by the second)
    // scaled by the mark's basis over the index now (K11).
    const range = market.extremes(spec, Math.max(window.from, current.openedAt), window.to);
    const mark = markOf(ctx, current.symbol);
    const index = BigInt(market.price(spec, ctx.now));
    const low = mulDiv(BigInt(range.low), mark, index, 'floor');
    const high = mulDiv(BigInt(range.high), mark, index, 'ceil');
    if (!bandBreached(band, low, high)) continue;
    // After a gap, find the second the mark first reached the price (the window's extremes only grow with
    // its end, so a binary search finds it) and liquidate against the book and mark of that moment.
    const from = Math.max(window.from, current.openedAt);
    let lo = from;
    let hi = window.to;
    while (hi - lo > 1_000) {
      const mid = lo + Math.floor((hi - lo) / 2_000) * 1_000;
      const r = market.extremes(spec, from, mid);
      const hit = bandBreached(
        band,
        mulDiv(BigInt(r.low), mark, index, 'floor'),
        mulDiv(BigInt(r.high), mark, index, 'ceil'),
      );
      if (hit) hi = mid;
      else lo = mid;
    }
    await liquidate(ctx, current, hi, shown);
  }
}
