/**
 * The member's favourite pairs (issue 26 item 3), read from the device: the replicated `favourites` rows
 * (engine/sync/views.ts) with this device's writes not yet settled laid over them in the order they were made,
 * so a star set offline shows at once, survives a reload and is sent when the connection returns. A star is
 * a write through the outbox (/api/market/favourite, which sets the state rather than toggling it, so a replay
 * lands where the member left it); it raises no "waiting" toast of its own, the star itself shows the state.
 */
import { useCallback, useEffect, useMemo } from 'react';
import type { FavouriteView } from '../../engine/index';
import { ApiError, reportError } from '../api';
import { appWrites } from '../sync/app-writes';
import { useReplica } from '../sync/live';
import { usePendingMutations, type PendingWrite } from '../sync/pending';
import { isApplied } from '../sync/writes';

export const FAVOURITE_PATH = '/api/market/favourite';

export interface Favourites {
  /** The favourite pairs, in the order they were starred. */
  symbols: readonly string[];
  has(symbol: string): boolean;
  /** Stars or unstars a pair (through the outbox). */
  toggle(symbol: string): void;
  /** The device has answered (false only for the first moments after a screen opens). */
  loaded: boolean;
}

interface FavouriteArgs {
  symbol: string;
  favourite: boolean;
}

function argsOf(row: PendingWrite): FavouriteArgs | null {
  const { symbol, favourite } = row.args;
  return typeof symbol === 'string' && typeof favourite === 'boolean' ? { symbol, favourite } : null;
}

/** The replica's favourites with the unsettled writes applied, oldest first (pure, for tests). */
export function mergeFavourites(
  records: readonly FavouriteView[],
  pending: readonly PendingWrite[],
): string[] {
  const ordered = [...records].sort((a, b) => a.time - b.time || (a.symbol < b.symbol ? -1 : 1));
  const symbols = ordered.map((r) => r.symbol);
  // Oldest write first, so the last one made wins; refused writes change nothing.
  for (const row of [...pending].sort((a, b) => a.createdAt - b.createdAt)) {
    const args = argsOf(row);
    if (!args || row.state === 'failed') continue;
    const at = symbols.indexOf(args.symbol);
    if (args.favourite && at < 0) symbols.push(args.symbol);
    if (!args.favourite && at >= 0) symbols.splice(at, 1);
  }
  return symbols;
}

export function useFavourites(): Favourites {
  const replica = useReplica<FavouriteView>('favourites');
  const pending = usePendingMutations(FAVOURITE_PATH);
  const symbols = useMemo(() => mergeFavourites(replica.records, pending), [replica.records, pending]);
  // An applied write's row goes once the replica shows what it set (no flicker back in between).
  useEffect(() => {
    const inReplica = new Set(replica.records.map((r) => r.symbol));
    for (const row of pending) {
      const args = argsOf(row);
      if (row.state === 'applied' && args && inReplica.has(args.symbol) === args.favourite)
        void appWrites().acknowledge(row.id);
    }
  }, [pending, replica.records]);
  const has = useCallback((symbol: string) => symbols.includes(symbol), [symbols]);
  const toggle = useCallback(
    (symbol: string) => {
      const args = { symbol, favourite: !symbols.includes(symbol) };
      void appWrites()
        .send(FAVOURITE_PATH, args)
        .then(async ({ id, result }) => {
          if (!result || isApplied(result.code)) return;
          await appWrites().acknowledge(id);
          reportError(new ApiError(result.code, result.msg, result.data));
        })
        .catch(() => undefined);
    },
    [symbols],
  );
  return { symbols, has, toggle, loaded: replica.loaded };
}
