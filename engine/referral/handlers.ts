/**
 * /api/user/invite: the member's invitation code, their direct invitees (one level only) and what each
 * has earned them. Earnings are the referral shares of platform fees (engine/trading/fees.ts, R1-R3),
 * read back from the `invite` entries of the profit log.
 */
import { members } from '../accounts/tables';
import { toSeconds } from '../context';
import { profitLog } from '../finance/tables';
import { formatAmount } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';

export interface InviteView {
  inviteCode: string;
  /** Share of the platform's fee on each direct invitee trade, percent. */
  shareRate: string;
  downline: { id: string; username: string; vip: string; joinedAt: number; earnings: string }[];
  earnings: string;
}

/** "alice123" -> "al***23": the downline list shows who joined without exposing full usernames. */
export function maskUsername(name: string): string {
  if (name.length <= 4) return `${name.slice(0, 1)}***`;
  return `${name.slice(0, 2)}***${name.slice(-2)}`;
}

export const referralDomain: Domain = {
  name: 'referral',
  handlers: {
    '/api/user/invite': handler({
      auth: true,
      run: async (ctx): Promise<InviteView> => {
        // Members carry no index on invitedBy (the accounts domain owns that table), so scan once.
        const invitees = (await ctx.tx.scan(members)).filter((m) => m.invitedBy === ctx.member.id);
        const shares = await ctx.tx.query(profitLog, 'memberType', `${ctx.member.id}:invite`);
        const byInvitee = new Map<string, bigint>();
        let total = 0n;
        for (const s of shares) {
          byInvitee.set(s.ref, (byInvitee.get(s.ref) ?? 0n) + BigInt(s.amount));
          total += BigInt(s.amount);
        }
        const bps = ctx.config.referralShareBps;
        return {
          inviteCode: ctx.member.inviteCode,
          shareRate: `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}`,
          downline: invitees
            .sort((a, b) => b.createdAt - a.createdAt)
            .map((m) => ({
              id: m.id,
              username: maskUsername(m.username),
              vip: `vip${m.vip}`,
              joinedAt: toSeconds(m.createdAt),
              earnings: formatAmount(byInvitee.get(m.id) ?? 0n),
            })),
          earnings: formatAmount(total),
        };
      },
    }),
  },
};
