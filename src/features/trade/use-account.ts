/**
 * What the trade forms need from the member's accounts: /api/account/assets (valued at mark prices, so
 * kept in the device cache rather than computed from the replica), shown offline with its time and re-read
 * whenever `version` changes (after an order, and on the feed's balance/order/position events).
 */
import { useCallback, useState } from 'react';
import type { AssetsView, FeedMessage } from '../../../engine/index';
import { api } from '../../api';
import { useCached, type CachedResult } from '../../sync/cache';
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

export function useAssets(version: number): CachedResult<AssetsView> {
  return useCached('assets', () => api.call('/api/account/assets', undefined, { silent: true }), {
    member: true,
    refresh: version,
  });
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
