/**
 * /api/market/list, /api/market/kline, /api/market/depth (public: the home page shows quotes to visitors)
 * and the `market.feed` hook that turns each settle() window into ticker24hr, Curr, Kline and getQuota
 * messages (the engine has no timers of its own: the feed advances as the host settles it).
 */
import { z } from 'zod';
import { fail } from '../errors';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body } from '../schema';
import { ALL_SUBSCRIPTIONS } from './feed';
import { BOOK_REFRESH_MS } from './depth';
import { marketOf } from './instance';
import { MAX_DEPTH_LIMIT, MAX_KLINE_LIMIT } from './market';
import { findSymbol } from './symbols';
import type { MarketSource } from './source';
import type { SymbolSpec } from './symbols';
import { INTERVALS } from './types';
import type { Candle, Depth, Quote } from './types';

export function requireSymbol(name: string): SymbolSpec {
  const spec = findSymbol(name);
  if (!spec) throw fail(400, `Unknown symbol "${name}"`);
  return spec;
}

/** A pair the market prices (a live server may list fewer than the simulator's eight). */
function listedSymbol(market: MarketSource, name: string): SymbolSpec {
  const spec = requireSymbol(name);
  if (!market.pairs().includes(spec)) throw fail(400, `Unknown symbol "${name}"`);
  return spec;
}

const intString = (max: number) =>
  z.union([
    z.number().int().min(1).max(max),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number)
      .pipe(z.number().int().min(1).max(max)),
  ]);

export const marketDomain: Domain = {
  name: 'market',
  handlers: {
    '/api/market/list': handler({
      auth: false,
      // A live engine without a market lists nothing: it never shows a price it does not have.
      run: async (ctx): Promise<{ list: Quote[] }> => ({
        list: ctx.counterparties.market?.quotes(ctx.now) ?? [],
      }),
    }),
    '/api/market/kline': handler({
      auth: false,
      body: body({
        symbol: z.string(),
        interval: z.enum(INTERVALS),
        limit: intString(MAX_KLINE_LIMIT).optional(),
        before: intString(99_999_999_999).optional(),
      }),
      run: async (ctx, input): Promise<Candle[]> => {
        const market = marketOf(ctx);
        return market.kline(
          listedSymbol(market, input.symbol),
          input.interval,
          ctx.now,
          input.limit,
          input.before,
        );
      },
    }),
    '/api/market/depth': handler({
      auth: false,
      body: body({ symbol: z.string(), limit: intString(MAX_DEPTH_LIMIT).optional() }),
      run: async (ctx, input): Promise<Depth> => {
        const market = marketOf(ctx);
        return market.depth(listedSymbol(market, input.symbol), ctx.now, input.limit ?? 20);
      },
    }),
  },
  periodic: [
    {
      name: 'market.feed',
      intervalMs: BOOK_REFRESH_MS,
      run: async (ctx, { from, to }) => {
        const market = ctx.counterparties.market;
        if (!market) return;
        for (const { message } of market.feed(from, to, ALL_SUBSCRIPTIONS)) {
          ctx.emit(message);
        }
      },
    },
  ],
};
