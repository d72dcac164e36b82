/** PnL settlement between a member's contract account and the simulated counterparty, house:market. */
import type { Ctx } from '../context';
import { acct } from '../ledger';
import type { Micro } from '../money';

export const HOUSE = acct.house('market');

/** Pays a signed PnL between the house and the member's contract account; a loss is capped at `cap`. */
export async function settlePnl(
  ctx: Ctx,
  memberId: string,
  pnl: Micro,
  cap: Micro,
  ref: string,
): Promise<Micro> {
  const contract = acct.user(memberId, 'contract');
  if (pnl > 0n) {
    await ctx.ledger.move(HOUSE, contract, pnl, { kind: 'contract:pnl', ref });
    return pnl;
  }
  const available = await ctx.ledger.balance(contract);
  const loss = [-pnl, cap, available].reduce((a, b) => (b < a ? b : a));
  if (loss > 0n) await ctx.ledger.move(contract, HOUSE, loss, { kind: 'contract:pnl', ref });
  return -loss;
}
