/**
 * Keeps the locally kept user info (SPEC.md §3: vip, balance, shown by /home) in step with the member's
 * replica: asks for a pull, then follows the replicated profile and balances (Dexie liveQuery). Loaded on
 * demand (src/lib/balance-refresh.ts), so /home's first paint needs no IndexedDB code.
 */
import { liveQuery } from 'dexie';
import { userStore } from '../state/user-store';
import { appSync } from '../sync/app';
import { readTables } from '../sync/live';
import { profileFromReplica, type ReplicaBalance, type ReplicaProfile } from '../sync/member-views';

export function followStoredUser(memberId: string): () => void {
  const sync = appSync();
  sync.requestPull();
  const subscription = liveQuery(() => readTables(sync.db, memberId, ['members', 'balances'])).subscribe({
    next: ({ tables }) => {
      const row = tables.members?.[0] as ReplicaProfile | undefined;
      if (!row || userStore.get()?.id !== memberId) return;
      const p = profileFromReplica(row, (tables.balances ?? []) as ReplicaBalance[], Date.now());
      userStore.set({ id: p.id, vip: p.vip, balance: p.balance });
    },
    error: () => undefined,
  });
  return () => subscription.unsubscribe();
}
