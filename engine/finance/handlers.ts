/**
 * /api/product/getlist, detail, buy, orders and /api/sprofitlog/getlist, plus the daily accrual job.
 */
import { z } from 'zod';
import { effectiveVip } from '../accounts/tables';
import type { AuthCtx } from '../context';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body, listShape, newestFirst, paginate } from '../schema';
import type { ListResult } from '../contract';
import { findProduct, PRODUCTS, type ProductSpec } from './catalogue';
import { ACCRUE_JOB, accrue, heldInProduct, soldThisRound, subscribe } from './service';
import { financeOrders, profitLog } from './tables';
import {
  orderView,
  productView,
  profitView,
  type FinanceOrderView,
  type ProductView,
  type ProfitView,
} from './views';

export const idField = z.union([z.string().min(1).max(40), z.number().int().nonnegative()]).transform(String);

async function view(ctx: AuthCtx, product: ProductSpec): Promise<ProductView> {
  return productView(product, {
    now: ctx.now,
    vip: effectiveVip(ctx.member, ctx.now),
    termDays: ctx.config.financeTermDays,
    sold: await soldThisRound(ctx, product.id),
    held: await heldInProduct(ctx, ctx.member.id, product.id),
  });
}

export const financeDomain: Domain = {
  name: 'finance',
  handlers: {
    '/api/product/getlist': handler({
      auth: true,
      body: body({ type: z.enum(['stable', 'growth', 'premium']).optional() }),
      run: async (ctx, input): Promise<{ list: ProductView[] }> => {
        const products = PRODUCTS.filter((p) => !input.type || p.type === input.type);
        const list: ProductView[] = [];
        for (const p of products) list.push(await view(ctx, p));
        return { list };
      },
    }),
    '/api/product/detail': handler({
      auth: true,
      body: body({ id: idField }),
      run: async (ctx, input): Promise<ProductView> => {
        const product = findProduct(input.id);
        if (!product) throw fail(Codes.notFound, 'Product not found');
        return view(ctx, product);
      },
    }),
    '/api/product/buy': handler({
      auth: true,
      body: body({ id: idField, amount, key: z.string().max(200) }),
      run: async (ctx, input): Promise<FinanceOrderView> =>
        orderView(await subscribe(ctx, ctx.member, input)),
    }),
    '/api/product/orders': handler({
      auth: true,
      body: body({ ...listShape, status: z.enum(['active', 'redeemed']).optional() }),
      run: async (ctx, input): Promise<ListResult<FinanceOrderView>> => {
        const rows = await ctx.tx.query(financeOrders, 'member', ctx.member.id);
        const picked = newestFirst(rows.filter((o) => !input.status || o.status === input.status));
        return paginate(picked.map(orderView), input);
      },
    }),
    '/api/sprofitlog/getlist': handler({
      auth: true,
      body: body({ ...listShape, type: z.enum(['finance', 'mining', 'invite']).optional() }),
      run: async (ctx, input): Promise<ListResult<ProfitView>> => {
        const rows = input.type
          ? await ctx.tx.query(profitLog, 'memberType', `${ctx.member.id}:${input.type}`)
          : await ctx.tx.query(profitLog, 'member', ctx.member.id);
        return paginate(newestFirst(rows).map(profitView), input);
      },
    }),
  },
  jobs: { [ACCRUE_JOB]: accrue },
};
