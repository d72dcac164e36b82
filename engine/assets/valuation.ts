/**
 * The engine's side of a member's valuation: their balances from the ledger (as BalanceFigure rows, the
 * shape the device replicates) and coin prices from the simulated market (the last price; USDT is 1).
 * The arithmetic is view.ts's, shared with the device.
 */
import type { BalanceFigure } from '../accounts/figures';
import type { Ctx } from '../context';
import { USDT } from '../ledger/accounts';
import { balances } from '../ledger/tables';
import { SCALE, type Micro } from '../money';
import { marketOf } from '../market/instance';
import { findSymbol } from '../market/symbols';

/** Mark price of one unit of `asset` in micro-USDT (USDT itself: 1). Unknown assets are worth 0. */
export function markPrice(ctx: Pick<Ctx, 'seed' | 'now' | 'config'>, asset: string): Micro {
  if (asset === USDT) return SCALE;
  const spec = findSymbol(asset);
  if (!spec) return 0n;
  return BigInt(marketOf(ctx).price(spec, ctx.now));
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
