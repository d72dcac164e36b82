/**
 * A member's balances by sub-account and asset, valued in USDT at mark prices (the simulated last price;
 * USDT is 1). Valuation rounds each line down to the micro-unit, so the total never overstates.
 */
import type { Ctx } from '../context';
import { SUB_ACCOUNTS, USDT, type SubAccount } from '../ledger/accounts';
import { balances } from '../ledger/tables';
import { mulDiv, type Micro } from '../money';
import { marketOf } from '../market/instance';
import { findSymbol } from '../market/symbols';

export interface Holding {
  sub: SubAccount;
  asset: string;
  available: Micro;
  frozen: Micro;
}

/** Mark price of one unit of `asset` in micro-USDT (USDT itself: 1). Unknown assets are worth 0. */
export function markPrice(ctx: Pick<Ctx, 'seed' | 'now' | 'config'>, asset: string): Micro {
  if (asset === USDT) return 1_000_000n;
  const spec = findSymbol(asset);
  if (!spec) return 0n;
  return BigInt(marketOf(ctx).price(spec, ctx.now));
}

export function valueOf(ctx: Pick<Ctx, 'seed' | 'now' | 'config'>, asset: string, amount: Micro): Micro {
  if (asset === USDT) return amount;
  return mulDiv(amount, markPrice(ctx, asset), 1_000_000n, 'floor');
}

/** Every non-zero balance of a member, grouped by sub-account and asset. */
export async function holdings(ctx: Ctx, memberId: string): Promise<Holding[]> {
  const rows = await ctx.tx.query(balances, 'owner', memberId);
  const byKey = new Map<string, Holding>();
  for (const row of rows) {
    const parts = row.account.split(':');
    const sub = parts[2] as SubAccount;
    if (!SUB_ACCOUNTS.includes(sub)) continue;
    const key = `${sub}|${row.asset}`;
    const h = byKey.get(key) ?? { sub, asset: row.asset, available: 0n, frozen: 0n };
    if (parts[3] === 'frozen') h.frozen += BigInt(row.amount);
    else h.available += BigInt(row.amount);
    byKey.set(key, h);
  }
  return [...byKey.values()].filter((h) => h.available !== 0n || h.frozen !== 0n);
}
