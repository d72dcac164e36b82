/**
 * The engine's side of a member's valuation: their balances from the ledger (as BalanceFigure rows, the
 * shape the device replicates) and coin prices from the engine's market (the last price; USDT is 1).
 * The arithmetic is view.ts's, shared with the device.
 */
import type { BalanceFigure } from '../accounts/figures';
import type { Ctx } from '../context';
import { USDT } from '../ledger/accounts';
import { balances } from '../ledger/tables';
import { SCALE, type Micro } from '../money';
import { findSymbol } from '../market/symbols';

/** Mark price of one unit of `asset` in micro-USDT (USDT itself: 1). Unknown assets are worth 0. */
export function markPrice(ctx: Pick<Ctx, 'now' | 'counterparties'>, asset: string): Micro {
  if (asset === USDT) return SCALE;
  const spec = findSymbol(asset);
  // A live engine without a market prices no coin (it cannot have sold any).
  const market = ctx.counterparties.market;
  if (!spec || !market) return 0n;
  return BigInt(market.price(spec, ctx.now));
}

/** Every balance row of a member, as a figure: sub-account, frozen or not, asset, amount. */
export async function balanceFigures(ctx: Ctx, memberId: string): Promise<BalanceFigure[]> {
  const rows = await ctx.tx.query(balances, 'owner', memberId);
  return rows.map((row) => {
    const parts = row.account.split(':');
    return {
      sub: parts[2] ?? '',
      frozen: parts[3] === 'frozen',
      asset: row.asset,
      amount: BigInt(row.amount),
    };
  });
}
