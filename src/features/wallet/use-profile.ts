/**
 * The member's profile (/api/user/getuser): balances, VIP level and expiry, credit score, real-name status.
 * Each successful read also refreshes the locally kept user info (SPEC.md §3: vip, balance), so /home and
 * the tab show what the server said last.
 */
import { useCallback, useEffect } from 'react';
import { api } from '../../api';
import type { MemberProfile } from '../../../engine/index';
import { userStore } from '../../app/user-store';
import { useQuery, type QueryResult } from '../../ui/useQuery';

export async function loadProfile(): Promise<MemberProfile> {
  const profile = await api.call('/api/user/getuser', undefined, { silent: true });
  if (userStore.get()) userStore.set({ id: profile.id, vip: profile.vip, balance: profile.balance });
  return profile;
}

export function useProfile(): QueryResult<MemberProfile> {
  return useQuery(useCallback(loadProfile, []));
}

/**
 * Refreshes the locally kept balance and level when a logged-in screen opens (/home shows the stored copy).
 * Silent: a failure leaves the last known figures on screen.
 */
export function useBalanceRefresh(userId: string | undefined): void {
  useEffect(() => {
    if (userId) void loadProfile().catch(() => undefined);
  }, [userId]);
}
