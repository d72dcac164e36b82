/** What /api/user/getuser and login tell a member about themself. Amounts are wire strings. */
import type { Ctx } from '../context';
import { toSeconds } from '../context';
import { acct, SUB_ACCOUNTS, USDT } from '../ledger/accounts';
import { creditScore } from '../credit/score';
import { memberFigures, type BalanceFigure, type MemberFigures } from './figures';
import { effectiveVip, vipName, type MemberRow, type RealNameStatus } from './tables';

export interface MemberView extends MemberFigures {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  vip: string;
  vipExpiresAt: number | null;
  creditScore: number;
  realNameStatus: RealNameStatus;
  inviteCode: string;
  createdAt: number;
}

export async function memberView(ctx: Ctx, member: MemberRow): Promise<MemberView> {
  const rows: BalanceFigure[] = [];
  for (const sub of SUB_ACCOUNTS) {
    rows.push({
      sub,
      frozen: false,
      asset: USDT,
      amount: await ctx.ledger.balance(acct.user(member.id, sub), USDT),
    });
    rows.push({
      sub,
      frozen: true,
      asset: USDT,
      amount: await ctx.ledger.balance(acct.frozen(member.id, sub), USDT),
    });
  }
  const level = effectiveVip(member, ctx.now);
  return {
    id: member.id,
    username: member.username,
    email: member.email,
    phone: member.phone,
    vip: vipName(level),
    vipExpiresAt: level > 0 && member.vipExpiresAt !== null ? toSeconds(member.vipExpiresAt) : null,
    ...memberFigures(rows),
    creditScore: creditScore(member, ctx.now),
    realNameStatus: member.realNameStatus,
    inviteCode: member.inviteCode,
    createdAt: toSeconds(member.createdAt),
  };
}
