/**
 * What the trade forms need from the member's accounts: /api/account/assets, re-read whenever `version`
 * changes (after an order, and on the feed's balance/order/position events).
 */
import { useCallback, useState } from 'react';
import type { AssetsView, FeedMessage } from '../../../engine/index';
import { api } from '../../api';
import { useQuery, type QueryResult } from '../../ui/useQuery';
import { useFeed } from '../market/feed';

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

export function useAssets(version: number): QueryResult<AssetsView> {
  return useQuery(() => api.call('/api/account/assets', undefined, { silent: true }), String(version));
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
