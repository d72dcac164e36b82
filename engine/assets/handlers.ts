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
import { acct, MOVABLE_ACCOUNTS, SUB_ACCOUNTS, USDT, type SubAccount } from '../ledger/accounts';
import { formatAmount, type Micro } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body } from '../schema';
import { holdings, valueOf } from './valuation';
import { unrealisedTotal } from '../trading/risk';

export interface AssetLine {
  asset: string;
  available: string;
  frozen: string;
  /** USDT value of available + frozen at the mark price. */
  valuation: string;
}

export interface SubAccountView {
  account: SubAccount;
  /** USDT available / frozen in this account (coins are listed under `assets`). */
  available: string;
  frozen: string;
  assets: AssetLine[];
  /** Unrealised PnL of open positions margined from this account (contracts), else "0". */
  unrealisedPnl: string;
  valuation: string;
}

export interface AssetsView {
  accounts: SubAccountView[];
  totalAssets: string;
  /** Same total, named as SPEC.md §3 "total assets and valuation". */
  valuation: string;
  currency: 'USDT';
}

async function assets(ctx: AuthCtx): Promise<AssetsView> {
  const lines = await holdings(ctx, ctx.member.id);
  const contractPnl = await unrealisedTotal(ctx, ctx.member.id);
  let total = 0n;
  const accounts = SUB_ACCOUNTS.map((sub): SubAccountView => {
    const mine = lines.filter((l) => l.sub === sub);
    let value = 0n;
    const assetLines = mine.map((l) => {
      const v = valueOf(ctx, l.asset, l.available + l.frozen);
      value += v;
      return {
        asset: l.asset,
        available: formatAmount(l.available),
        frozen: formatAmount(l.frozen),
        valuation: formatAmount(v),
      };
    });
    const usdt = mine.find((l) => l.asset === USDT);
    const unrealised: Micro = sub === 'contract' ? contractPnl : 0n;
    value += unrealised;
    if (value < 0n) value = 0n;
    total += value;
    return {
      account: sub,
      available: formatAmount(usdt?.available ?? 0n),
      frozen: formatAmount(usdt?.frozen ?? 0n),
      assets: assetLines,
      unrealisedPnl: formatAmount(unrealised),
      valuation: formatAmount(value),
    };
  });
  return { accounts, totalAssets: formatAmount(total), valuation: formatAmount(total), currency: 'USDT' };
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
