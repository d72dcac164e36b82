/** What /api/user/getuser and login tell a member about themself. Amounts are wire strings. */
import type { Ctx } from '../context';
import { toSeconds } from '../context';
import { acct, SUB_ACCOUNTS, USDT } from '../ledger/accounts';
import { creditScore } from '../credit/score';
import { formatAmount } from '../money';
import { effectiveVip, vipName, type MemberRow, type RealNameStatus } from './tables';

export interface MemberView {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  vip: string;
  vipExpiresAt: number | null;
  /** Cash: available + frozen. */
  balance: string;
  available: string;
  frozen: string;
  /** USDT across all sub-accounts (cash, fund, contract, options, financial), frozen included. */
  totalAssets: string;
  creditScore: number;
  realNameStatus: RealNameStatus;
  inviteCode: string;
  createdAt: number;
}

export async function memberView(ctx: Ctx, member: MemberRow): Promise<MemberView> {
  const cash = await ctx.ledger.member(member.id);
  let total = 0n;
  for (const sub of SUB_ACCOUNTS) {
    total += await ctx.ledger.balance(acct.user(member.id, sub), USDT);
    total += await ctx.ledger.balance(acct.frozen(member.id, sub), USDT);
  }
  const level = effectiveVip(member, ctx.now);
  return {
    id: member.id,
    username: member.username,
    email: member.email,
    phone: member.phone,
    vip: vipName(level),
    vipExpiresAt: level > 0 && member.vipExpiresAt !== null ? toSeconds(member.vipExpiresAt) : null,
    balance: formatAmount(cash.available + cash.frozen),
    available: formatAmount(cash.available),
    frozen: formatAmount(cash.frozen),
    totalAssets: formatAmount(total),
    creditScore: creditScore(member, ctx.now),
    realNameStatus: member.realNameStatus,
    inviteCode: member.inviteCode,
    createdAt: toSeconds(member.createdAt),
  };
}
