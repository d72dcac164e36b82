/**
 * What the trade forms need from the member's accounts: the sub-accounts of /api/account/assets, computed
 * on the device from the replica (the `balances` rows and the contract `positions`) with the engine's own
 * assetsView, the quotes valuing coins and open positions at their marks. Shown offline with its time; a
 * pull (after an order, or on the feed's balance/order/position events) re-renders it by itself.
 */
import { useCallback, useMemo, useState } from 'react';
import type { AssetsView, FeedMessage, PositionRecord, Quote } from '../../../engine/index';
import { useReplicaTables } from '../../sync/live';
import { assetsFromReplica, type ReplicaBalance } from '../../sync/member-views';
import { useFeed } from '../../lib/feed';

export type SubAccount = 'cash' | 'fund' | 'contract' | 'options' | 'financial';

export function availableOf(
  assets: AssetsView | undefined,
  sub: SubAccount,
  asset = 'USDT',
): string | undefined {
  const account = assets?.accounts.find((a) => a.account === sub);
  if (!account) return undefined;
  return account.assets.find((l) => l.asset === asset)?.available ?? '0';
}

export interface AccountAssets {
  /** Undefined until anything was ever loaded on this device. */
  data: AssetsView | undefined;
  /** When the replica was last pulled complete (ms), or null. */
  pulledAt: number | null;
}

const TABLES = ['balances', 'positions'] as const;

/** The member's sub-accounts from the replica, valued at `quotes` (their latest and mark prices). */
export function useAssets(quotes: readonly Quote[]): AccountAssets {
  const { tables, everLoaded, pulledAt } = useReplicaTables(TABLES);
  const balances = tables.balances as ReplicaBalance[] | undefined;
  const positions = tables.positions as PositionRecord[] | undefined;
  const data = useMemo(
    () => (everLoaded ? assetsFromReplica(balances ?? [], positions ?? [], quotes) : undefined),
    [everLoaded, balances, positions, quotes],
  );
  return { data, pulledAt };
}

const ACCOUNT_EVENTS = new Set(['balance', 'order', 'position']);

/** A number that grows whenever the member's orders, positions or balances may have changed. */
export function useAccountVersion(): [number, () => void] {
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  useFeed((message: FeedMessage) => {
    if (ACCOUNT_EVENTS.has(message.type)) bump();
  });
  return [version, bump];
}
