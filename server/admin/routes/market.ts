/**
 * The house's risk and the kill switch (docs/OPERATIONS.md "Market data and the house's risk"): per pair the
 * house's net position (what members hold, reversed), its value at the index, the contract side's PnL, where
 * the prices come from and each venue's state; and an admin's switch that stops new orders in one pair
 * (members may still close), audited in the decision's own transaction.
 */
import type { FastifyInstance } from 'fastify';
import type { AdminMarket, AdminMarketPair, AdminMarketVenue } from '../../../contract/admin/model';
import { formatAmount, type PairRisk } from '../../../engine/server';
import { AdminError, auditNote } from '../db';
import { adminRoute, type AdminOptions } from '../route';

export async function marketRoutes(app: FastifyInstance, { engine, market }: AdminOptions): Promise<void> {
  const venuesOf = (symbol: string): AdminMarketVenue[] =>
    market.venueStates(symbol).map((v) => ({
      venue: v.venue,
      price: v.price === null ? null : formatAmount(BigInt(v.price)),
      time: v.time === null ? null : Math.floor(v.time / 1000),
      state: v.state,
    }));
  const pairView = (p: PairRisk): AdminMarketPair => ({ ...p, venues: venuesOf(p.symbol) });

  async function view(): Promise<AdminMarket> {
    const risk = await engine.operations.houseRisk();
    return { mode: market.mode, ...risk, pairs: risk.pairs.map(pairView) };
  }

  adminRoute(app, 'GET /api/admin/market', async () => view());

  adminRoute(app, 'POST /api/admin/market/halt', async (ctx, { symbol, halted, reason }) => {
    const before = (await engine.operations.houseRisk()).pairs.find((p) => p.symbol === symbol);
    if (!before) throw new AdminError(404, `No such pair: ${symbol}`);
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: halted ? 'market.halt' : 'market.resume',
      target: `pair:${symbol}`,
      before: { halted: before.halted },
      after: { halted },
      reason,
      ip: ctx.ip,
    });
    if (!(await engine.operations.setTradingHalt(symbol, halted, reason, note)))
      throw new AdminError(
        409,
        halted ? `New orders in ${symbol} are already stopped` : `${symbol} is not stopped`,
      );
    const after = (await engine.operations.houseRisk()).pairs.find((p) => p.symbol === symbol);
    if (!after) throw new AdminError(404, `No such pair: ${symbol}`);
    return pairView(after);
  });
}
