/**
 * Trading fees and the referral share (docs/RULES.md R1-R2). A fee goes from the member's account to
 * platform:fees; if the member was invited, a configured share of that fee then goes from platform:fees to
 * the inviter's cash, in the same unit of work. The inviter is paid only out of fee revenue the platform
 * has just earned on that trade, never out of the invitee's deposits or balances.
 */
import { members } from '../accounts/tables';
import type { Ctx } from '../context';
import { addProfit } from '../finance/service';
import { acct, type SubAccount } from '../ledger/accounts';
import { mulDiv, type Micro } from '../money';

export const FEES = acct.platform('fees');

export function feeOf(amount: Micro, bps: number): Micro {
  return mulDiv(amount, BigInt(bps), 10_000n, 'ceil');
}

/** Posts the fee (if any) and the inviter's share. `legs` lets a caller fold the fee into its own entry. */
export async function shareFee(ctx: Ctx, memberId: string, fee: Micro, ref: string): Promise<void> {
  if (fee <= 0n) return;
  const member = await ctx.tx.get(members, memberId);
  if (!member?.invitedBy) return;
  const share = mulDiv(fee, BigInt(ctx.config.referralShareBps), 10_000n, 'floor');
  if (share <= 0n) return;
  await ctx.ledger.move(FEES, acct.user(member.invitedBy, 'cash'), share, { kind: 'referral:share', ref });
  await addProfit(ctx, {
    memberId: member.invitedBy,
    type: 'invite',
    amount: share,
    ref: memberId,
    note: `Fee share from ${member.username}`,
  });
}

/** Charges a fee from a member sub-account to the platform, then shares it with the inviter. */
export async function chargeFee(
  ctx: Ctx,
  memberId: string,
  sub: SubAccount,
  fee: Micro,
  ref: string,
): Promise<void> {
  if (fee <= 0n) return;
  await ctx.ledger.move(acct.user(memberId, sub), FEES, fee, { kind: 'trade:fee', ref });
  await shareFee(ctx, memberId, fee, ref);
}
