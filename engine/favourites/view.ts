/** What a member sees of a favourite (the list call and the synced `favourites` rows). */
import { toSeconds } from '../context';
import type { FavouriteRow } from './tables';

export interface FavouriteView {
  id: string;
  symbol: string;
  /** When it became a favourite (Unix seconds). */
  time: number;
}

export function favouriteView(row: FavouriteRow): FavouriteView {
  return { id: row.id, symbol: row.symbol, time: toSeconds(row.createdAt) };
}
