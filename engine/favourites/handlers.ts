/**
 * Favourite pairs (issue 26 item 3; API.md "Favourite pairs"): the member's watchlist on the Quotes tab.
 * `/api/market/favourite` sets a pair's state rather than toggling it, so a write queued offline and replayed
 * (or sent twice) lands on the state the member chose; the rows sync to the member's devices as `favourites`.
 */
import { z } from 'zod';
import type { AuthCtx } from '../context';
import { requireSymbol } from '../market/handlers';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body } from '../schema';
import { favouriteId, favourites, type FavouriteRow } from './tables';
import { favouriteView, type FavouriteView } from './view';

async function mine(ctx: AuthCtx): Promise<FavouriteRow[]> {
  const rows = await ctx.tx.query(favourites, 'member', ctx.member.id);
  return [...rows].sort((a, b) => a.createdAt - b.createdAt || (a.symbol < b.symbol ? -1 : 1));
}

export const favouritesDomain: Domain = {
  name: 'favourites',
  handlers: {
    '/api/market/favourites': handler({
      auth: true,
      run: async (ctx): Promise<{ list: FavouriteView[] }> => ({
        list: (await mine(ctx)).map(favouriteView),
      }),
    }),
    '/api/market/favourite': handler({
      auth: true,
      body: body({ symbol: z.string().max(32), favourite: z.boolean() }),
      run: async (ctx, input): Promise<{ symbol: string; favourite: boolean }> => {
        // A pair the engine knows (400 otherwise); a live server listing fewer pairs may still keep it.
        const { symbol } = requireSymbol(input.symbol);
        const id = favouriteId(ctx.member.id, symbol);
        const row = await ctx.tx.get(favourites, id);
        if (input.favourite && !row) {
          ctx.tx.put(favourites, { id, memberId: ctx.member.id, symbol, createdAt: ctx.now });
        } else if (!input.favourite && row) {
          ctx.tx.delete(favourites, id);
        }
        return { symbol, favourite: input.favourite };
      },
    }),
  },
};
