/**
 * The `alerts.watch` hook: once a second (and once for a whole gap, as trading.watch does) it fires every
 * active price alert whose pair's price reached it in the window, at the first whole second it did (N3), with
 * a notice to its member (engine/devices/notices.ts), and warns a member whose position's margin ratio is at
 * or above `marginWarningBps` at the window's end (N4: once per crossing). It runs after trading.watch
 * (engine/routes.ts lists alerts after trading), so a position liquidated in the window is not warned about.
 */
import type { Ctx } from '../context';
import { notify } from '../devices/notices';
import { acct } from '../ledger';
import type { MarketSource } from '../market/source';
import { findSymbol, type SymbolSpec } from '../market/symbols';
import { formatAmount } from '../money';
import { bpsPercent, positionsAtMark } from '../trading/position-figures';
import { atMark, markOf } from '../trading/risk';
import { positions } from '../trading/tables';
import { reached } from './rules';
import { marginWarnings, priceAlerts, type PriceAlertRow } from './tables';
import { ppmPercent } from './view';

const SECOND = 1_000;

export async function watchAlerts(ctx: Ctx, window: { from: number; to: number }): Promise<void> {
  const market = ctx.counterparties.market;
  if (!market) return;
  const active = await ctx.tx.query(priceAlerts, 'status', 'active');
  for (const row of [...active].sort((a, b) => Number(a.id) - Number(b.id))) {
    const spec = findSymbol(row.symbol);
    // A stale index is no price to alert on: the alert waits for fresh prices (as resting orders do).
    if (!spec || market.status(spec, ctx.now).stale) continue;
    const from = Math.max(window.from, row.createdAt);
    if (window.to <= from) continue;
    const hit = firstReach(market, spec, row, from, window.to);
    if (hit) await fire(ctx, row, hit.at, hit.price);
  }
  await warnMargins(ctx);
}

/**
 * The first whole second s in (from, to] at which the price reached the alert, and the price: the prices up
 * to s reach it and those up to s - 1 s do not, so a binary search over the window's extremes finds it in
 * about log2(window / 1 s) look-ups (each a few candles and at most two minutes of seconds).
 */
function firstReach(
  market: MarketSource,
  spec: SymbolSpec,
  row: PriceAlertRow,
  from: number,
  to: number,
): { at: number; price: bigint } | null {
  if (reached(row, market.extremes(spec, from, to)) === null) return null;
  let lo = Math.floor(from / SECOND); // seconds: the prices up to lo do not reach it
  let hi = Math.ceil(to / SECOND); // the prices up to hi do
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (reached(row, market.extremes(spec, from, Math.min(mid * SECOND, to))) === null) lo = mid;
    else hi = mid;
  }
  const at = Math.min(hi * SECOND, to);
  // The extreme of the prices up to `at` that reached it (a minute's candle may hold a price between two
  // whole seconds, so the last second's own price can fall short of the target).
  const price = reached(row, market.extremes(spec, from, at));
  return { at, price: price ?? BigInt(market.price(spec, at)) };
}

async function fire(ctx: Ctx, row: PriceAlertRow, at: number, price: bigint): Promise<void> {
  ctx.tx.put(priceAlerts, { ...row, status: 'fired', endedAt: at, firedPrice: price.toString() });
  await notify(ctx, row.memberId, 'alert.fired', {
    id: row.id,
    symbol: row.symbol,
    kind: row.kind,
    target: row.price === null ? '' : formatAmount(BigInt(row.price)),
    percent: row.movePpm === null ? '' : ppmPercent(row.movePpm),
    price: formatAmount(price),
  });
  ctx.emit({ type: 'alert', data: { memberId: row.memberId, id: row.id, status: 'fired' } });
}

/** N4: warn once per crossing of the threshold, per isolated position or per cross account. */
async function warnMargins(ctx: Ctx): Promise<void> {
  const threshold = BigInt(ctx.config.marginWarningBps);
  const open = await ctx.tx.query(positions, 'open', 'open');
  const above = new Map<string, { memberId: string; symbol: string; ratioBps: bigint; cross: boolean }>();
  const members = [...new Set(open.map((p) => p.memberId))].sort();
  for (const memberId of members) {
    const rows = open.filter((p) => p.memberId === memberId && p.status === 'open');
    const free = await ctx.ledger.balance(acct.user(memberId, 'contract'));
    const figures = positionsAtMark(
      rows.map(atMark),
      free,
      (symbol) => markOf(ctx, symbol),
      ctx.config.riskTiers,
    );
    for (const p of rows) {
      const f = figures.get(p.id);
      if (!f || f.ratioBps < threshold) continue;
      const key = p.marginMode === 'cross' ? `cross:${memberId}` : p.id;
      if (!above.has(key))
        above.set(key, { memberId, symbol: p.symbol, ratioBps: f.ratioBps, cross: p.marginMode === 'cross' });
    }
  }
  // Warnings whose ratio went back under the threshold (or whose positions closed) may warn again.
  for (const w of await ctx.tx.query(marginWarnings, 'all', 'all'))
    if (!above.has(w.id)) ctx.tx.delete(marginWarnings, w.id);
  for (const [key, w] of [...above].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (await ctx.tx.get(marginWarnings, key)) continue;
    ctx.tx.put(marginWarnings, { id: key, memberId: w.memberId, at: ctx.now });
    await notify(ctx, w.memberId, 'margin.warning', {
      symbol: w.cross ? '' : w.symbol,
      account: w.cross ? 'cross' : 'isolated',
      ratio: bpsPercent(w.ratioBps),
    });
  }
}
