/**
 * /api/account/assets (the five sub-accounts with their coins and the total valuation at mark prices)
 * and /api/account/transfer (between a member's own sub-accounts, USDT).
 *
 * The financial sub-account only ever holds subscribed principal, frozen for its term, so it is neither a
 * source nor a target of transfers (400); money reaches it only through /api/product/buy.
 */
import { z } from 'zod';
import type { AuthCtx } from '../context';
import { Codes, fail } from '../errors';
import { acct, MOVABLE_ACCOUNTS } from '../ledger/accounts';
import { formatAmount } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body } from '../schema';
import { balanceFigures, markPrice } from './valuation';
import { assetsView, type AssetsView } from './view';
import { unrealisedTotal } from '../trading/risk';

export type { AssetLine, AssetsView, SubAccountView } from './view';

async function assets(ctx: AuthCtx): Promise<AssetsView> {
  return assetsView(
    await balanceFigures(ctx, ctx.member.id),
    await unrealisedTotal(ctx, ctx.member.id),
    (asset) => markPrice(ctx, asset),
  );
}

export const assetsDomain: Domain = {
  name: 'assets',
  handlers: {
    '/api/account/assets': handler({ auth: true, run: assets }),
    '/api/account/transfer': handler({
      auth: true,
      body: body({ from: z.enum(MOVABLE_ACCOUNTS), to: z.enum(MOVABLE_ACCOUNTS), amount }),
      run: async (ctx, input) => {
        if (input.from === input.to) throw fail(400, 'Choose two different accounts');
        if (input.amount <= 0n) throw fail(400, 'Amount must be greater than zero');
        const id = await ctx.ids.next('accountTransfer');
        await ctx.ledger.move(
          acct.user(ctx.member.id, input.from),
          acct.user(ctx.member.id, input.to),
          input.amount,
          {
            kind: 'account:transfer',
            ref: `account-transfer:${id}`,
            insufficientCode: Codes.insufficientBalance,
          },
        );
        return { id, from: input.from, to: input.to, amount: formatAmount(input.amount), time: ctx.nowSec };
      },
    }),
  },
};
