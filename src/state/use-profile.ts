/**
 * The member's profile (the figures of /api/user/getuser: balances, VIP level and expiry, credit score,
 * real-name status), read from the device replica (src/sync/live.ts), so it shows offline with its time.
 * Each new reading also refreshes the locally kept user info (SPEC.md §3: username, vip, balance), so /home and the
 * tab show what the server said last.
 */
import { useEffect, useMemo } from 'react';
import type { MemberProfile } from '../../engine/index';
import { userStore } from './user-store';
import { appSync } from '../sync/app';
import { useSyncStatus } from '../sync/status';
import { useReplicaTables } from '../sync/live';
import {
  balancesKnown,
  profileFromReplica,
  type ReplicaBalance,
  type ReplicaProfile,
} from '../sync/member-views';
import { useOnlineStatus } from '../pwa/online';
import type { Failure } from '../machines/failure';

/** What the profile is read from (and what a screen showing it reads before its first render: routes.tsx). */
export const PROFILE_TABLES = ['members', 'balances'] as const;

export type ProfileResult = (
  | { status: 'loading'; data: MemberProfile | undefined; error: null }
  | { status: 'error'; data: MemberProfile | undefined; error: Failure }
  | { status: 'ready'; data: MemberProfile; error: null }
) & {
  /** Asks the sync engine for a pull (the replica re-renders the screen when it lands). */
  reload: () => void;
  /** When the replica was last pulled complete (ms), or null. */
  pulledAt: number | null;
};

/** Pulls the member's changes (after a write): screens reading the replica update by themselves. */
export async function loadProfile(): Promise<void> {
  await appSync().pull();
}

const OFFLINE: Failure = { code: 'ERR_NETWORK', msg: '' };

export function useProfile(): ProfileResult {
  const { tables, loaded, pulledAt } = useReplicaTables(PROFILE_TABLES);
  const online = useOnlineStatus();
  const sync = useSyncStatus();
  const row = tables.members?.[0] as ReplicaProfile | undefined;
  const balances = tables.balances as ReplicaBalance[] | undefined;
  const known = balancesKnown(balances, pulledAt);
  const data = useMemo(
    () => (row && known ? profileFromReplica(row, balances ?? [], Date.now()) : undefined),
    [row, balances, known],
  );
  useEffect(() => {
    // The stored user (SPEC.md §3: username, vip, balance) is what /home and the tabs show.
    if (data && userStore.get()?.id === data.id)
      userStore.set({ id: data.id, username: data.username, vip: data.vip, balance: data.balance });
  }, [data]);
  const reload = () => appSync().requestPull();
  if (data) return { status: 'ready', data, error: null, reload, pulledAt };
  const failed = !online || sync.state === 'offline' || sync.state === 'error';
  if (loaded && failed) {
    const code = sync.error && /^\d+$/.test(sync.error) ? Number(sync.error) : sync.error;
    const error: Failure = code !== null && online ? { code, msg: '' } : OFFLINE;
    return { status: 'error', data: undefined, error, reload, pulledAt };
  }
  return { status: 'loading', data: undefined, error: null, reload, pulledAt };
}
