/**
 * The member's favourite pairs (issue 26 item 3: the Quotes tab's watchlist): one row per member and pair,
 * present while it is a favourite. The id is `<memberId>:<symbol>`, so setting a favourite twice keeps one
 * row and a replayed write changes nothing. Times are ms (engine/README.md).
 */
import { defineTable } from '../store/port';

export interface FavouriteRow {
  /** `<memberId>:<symbol>` */
  id: string;
  memberId: string;
  /** The pair, as the wire names it ("BTC/USDT"). */
  symbol: string;
  createdAt: number;
}

export const favourites = defineTable<FavouriteRow>('favourites', { member: (r) => r.memberId });

export function favouriteId(memberId: string, symbol: string): string {
  return `${memberId}:${symbol}`;
}
