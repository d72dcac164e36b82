/**
 * /api/user/invite: the member's invitation code, their direct invitees (one level only) and what each
 * has earned them. Earnings are the referral shares of platform fees (engine/trading/fees.ts, R1-R3),
 * read back from the `invite` entries of the profit log. The answer is view.ts's inviteSummary, the
 * function the device uses on its replica.
 */
import { members } from '../accounts/tables';
import { profitLog } from '../finance/tables';
import { handler } from '../router';
import type { Domain } from '../routes';
import { inviteeView, inviteSummary, shareRate, type InviteView } from './view';

export { maskUsername, type InviteView } from './view';

export const referralDomain: Domain = {
  name: 'referral',
  handlers: {
    '/api/user/invite': handler({
      auth: true,
      run: async (ctx): Promise<InviteView> => {
        // Members carry no index on invitedBy (the accounts domain owns that table), so scan once.
        const invitees = (await ctx.tx.scan(members)).filter((m) => m.invitedBy === ctx.member.id);
        const shares = await ctx.tx.query(profitLog, 'memberType', `${ctx.member.id}:invite`);
        return inviteSummary(
          ctx.member.inviteCode,
          shareRate(ctx.config.referralShareBps),
          invitees.map(inviteeView),
          shares.map((s) => ({ ref: s.ref, amount: BigInt(s.amount) })),
        );
      },
    }),
  },
};
