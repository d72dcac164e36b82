/**
 * Price alerts (issue 26 item 4; API.md "Price alerts"; docs/RULES.md N1-N6): set one on a pair (above or
 * below a price, or a move of a percentage either way from now), list them, cancel one. The `alerts.watch`
 * hook (watch.ts) fires them as the engine's clock advances, and warns of positions near liquidation.
 */
import { z } from 'zod';
import type { AuthCtx } from '../context';
import { Codes, fail } from '../errors';
import { requireSymbol } from '../market/handlers';
import { marketOf } from '../market/instance';
import { formatAmount } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body, listShape, paginate } from '../schema';
import { requireMovePpm } from './rules';
import { priceAlerts, type PriceAlertRow } from './tables';
import { alertView, type AlertView } from './view';
import { watchAlerts } from './watch';

const symbol = z.string().max(32);

const createBody = z.discriminatedUnion('kind', [
  body({ symbol, kind: z.enum(['above', 'below']), price: amount }),
  body({ symbol, kind: z.literal('move'), percent: amount }),
]);

async function mine(ctx: AuthCtx): Promise<PriceAlertRow[]> {
  const rows = await ctx.tx.query(priceAlerts, 'member', ctx.member.id);
  return [...rows].sort((a, b) => b.createdAt - a.createdAt || Number(b.id) - Number(a.id));
}

export const alertsDomain: Domain = {
  name: 'alerts',
  handlers: {
    '/api/alert/create': handler({
      auth: true,
      body: createBody,
      run: async (ctx, input): Promise<AlertView> => {
        const spec = requireSymbol(input.symbol);
        const market = marketOf(ctx);
        if (!market.pairs().includes(spec)) throw fail(400, `${spec.symbol} is not traded here`);
        const now = BigInt(market.price(spec, ctx.now));
        let price: bigint | null = null;
        let movePpm: number | null = null;
        if (input.kind === 'move') movePpm = requireMovePpm(input.percent);
        else {
          price = input.price;
          if (price <= 0n) {
            throw fail(Codes.alertValueInvalid, 'The alert price must be greater than zero', {
              min: '0.000001',
            });
          }
          // N1: an alert the price already meets would fire at once: say so instead of setting it.
          if (input.kind === 'above' ? now >= price : now <= price) {
            throw fail(
              Codes.alertAlreadyMet,
              `${spec.symbol} is already ${input.kind === 'above' ? 'at or above' : 'at or below'} that price`,
              { price: formatAmount(now) },
            );
          }
        }
        const active = (await ctx.tx.query(priceAlerts, 'member', ctx.member.id)).filter(
          (r) => r.status === 'active',
        );
        if (active.length >= ctx.config.alertLimit) {
          throw fail(Codes.alertLimit, 'You have the most active alerts allowed: cancel one first', {
            limit: ctx.config.alertLimit,
          });
        }
        const row: PriceAlertRow = {
          id: await ctx.ids.next('priceAlert'),
          memberId: ctx.member.id,
          symbol: spec.symbol,
          kind: input.kind,
          price: price === null ? null : price.toString(),
          movePpm,
          basePrice: now.toString(),
          status: 'active',
          createdAt: ctx.now,
          endedAt: null,
          firedPrice: null,
        };
        ctx.tx.put(priceAlerts, row);
        ctx.emit({ type: 'alert', data: { memberId: ctx.member.id, id: row.id, status: row.status } });
        return alertView(row);
      },
    }),

    '/api/alert/list': handler({
      auth: true,
      body: body({ ...listShape, status: z.enum(['active', 'fired', 'cancelled']).optional() }),
      run: async (ctx, input) => {
        const rows = (await mine(ctx)).filter((r) => !input.status || r.status === input.status);
        return paginate(rows.map(alertView), input);
      },
    }),

    '/api/alert/cancel': handler({
      auth: true,
      body: body({ id: z.string().max(64) }),
      run: async (ctx, input): Promise<AlertView> => {
        const row = await ctx.tx.get(priceAlerts, input.id);
        if (!row || row.memberId !== ctx.member.id) throw fail(Codes.alertUnknown, 'No such alert');
        // N2: only an active alert can be cancelled; a fired one stays in the list as it fired.
        if (row.status !== 'active') {
          throw fail(Codes.alertEnded, 'This alert has already fired or been cancelled', {
            status: row.status,
          });
        }
        const cancelled: PriceAlertRow = { ...row, status: 'cancelled', endedAt: ctx.now };
        ctx.tx.put(priceAlerts, cancelled);
        ctx.emit({ type: 'alert', data: { memberId: ctx.member.id, id: row.id, status: 'cancelled' } });
        return alertView(cancelled);
      },
    }),
  },
  periodic: [{ name: 'alerts.watch', intervalMs: 1_000, run: watchAlerts }],
};
