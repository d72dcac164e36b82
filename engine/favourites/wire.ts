/**
 * Wire types of favourite pairs (issue 26 item 3; API.md "Favourite pairs"), merged into ContractMap
 * (engine/contract.ts). Times are Unix seconds.
 */
import type { FavouriteView } from './view';

export type { FavouriteView } from './view';

export interface FavouritesContract {
  /** The member's favourite pairs, oldest first (the order they were starred in). */
  '/api/market/favourites': { body: undefined; data: { list: FavouriteView[] } };
  /** Sets whether a pair is a favourite: idempotent (setting the state it has changes nothing). */
  '/api/market/favourite': {
    body: { symbol: string; favourite: boolean };
    data: { symbol: string; favourite: boolean };
  };
}
