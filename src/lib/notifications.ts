/**
 * The notification centre's shared half (docs/SPEC.md §12): which notices the member has seen, the unread
 * count /user shows, and each notice kind's group. The notices are the engine's `notices` rows in the replica;
 * "seen" is the newest notice id seen, kept on the service (/api/notice/seen, synced as `noticeReads`) through
 * the outbox, with this device's localStorage copy as the immediate state: the seen id is the highest of the
 * replica's row, the writes still waiting and this copy. API.md "Price alerts".
 */
import { useSyncExternalStore } from 'react';
import type { NoticeKind, NoticeReadView, NoticeView } from '../../engine/index';
import { ApiError, reportError } from '../api';
import { appWrites } from '../sync/app-writes';
import { useReplica } from '../sync/live';
import { usePendingMutations, type PendingWrite } from '../sync/pending';
import { isApplied } from '../sync/writes';
import { useUser } from '../state/user-store';
import { readString, STORAGE_KEYS, writeString } from './storage';

export type NoticeGroup = 'alerts' | 'funds' | 'trading' | 'security';

export const NOTICE_SEEN_PATH = '/api/notice/seen';

const GROUPS: Partial<Record<NoticeKind, NoticeGroup>> = {
  'alert.fired': 'alerts',
  'deposit.credited': 'funds',
  'withdrawal.sent': 'funds',
  'margin.warning': 'trading',
  'funding.settled': 'trading',
};

export function noticeGroup(kind: string): NoticeGroup {
  return GROUPS[kind as NoticeKind] ?? 'security';
}

const listeners = new Set<() => void>();

function seenKey(memberId: string): string {
  return `${STORAGE_KEYS.noticesSeen}${memberId}`;
}

function idNumber(id: unknown): number {
  const value = typeof id === 'string' ? Number(id) : 0;
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/** The newest notice id the member has seen on this device (0: none). Notice ids are the engine's counters. */
export function seenNoticeId(memberId: string): number {
  return idNumber(readString(seenKey(memberId)) ?? '0');
}

/**
 * The newest notice id the service has, or will have once the outbox is sent: the replica's `noticeReads`
 * row and the writes not refused (pure, for tests).
 */
export function recordedSeen(
  reads: readonly Pick<NoticeReadView, 'seen'>[],
  pending: readonly Pick<PendingWrite, 'args' | 'state'>[],
): number {
  let seen = 0;
  for (const r of reads) seen = Math.max(seen, idNumber(r.seen));
  for (const p of pending) if (p.state !== 'failed') seen = Math.max(seen, idNumber(p.args.id));
  return seen;
}

/** The highest id this tab has sent per member (the outbox entry may not be readable yet): no second send. */
const sent = new Map<string, number>();

/**
 * Marks `notices` seen: at once on this device, and on the service through the outbox when the newest is
 * beyond what it has recorded (`recorded`: recordedSeen of the replica and the waiting writes).
 */
export function markNoticesSeen(
  memberId: string,
  notices: readonly Pick<NoticeView, 'id'>[],
  recorded: number,
): void {
  const newest = notices.reduce((max, n) => Math.max(max, idNumber(n.id)), 0);
  if (newest > seenNoticeId(memberId)) {
    writeString(seenKey(memberId), String(newest));
    for (const listener of listeners) listener();
  }
  if (newest <= recorded || newest <= (sent.get(memberId) ?? 0)) return;
  sent.set(memberId, newest);
  const writes = appWrites();
  void writes
    .send(NOTICE_SEEN_PATH, { id: String(newest) })
    .then(async ({ id, result }) => {
      // Queued (offline): the outbox sends it later, quietly (app-writes.ts).
      if (!result) return;
      await writes.acknowledge(id);
      if (!isApplied(result.code)) reportError(new ApiError(result.code, result.msg, result.data));
    })
    .catch(() => sent.delete(memberId));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key?.startsWith(STORAGE_KEYS.noticesSeen)) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

export function isUnread(notice: Pick<NoticeView, 'id'>, seen: number): boolean {
  return idNumber(notice.id) > seen;
}

/**
 * The member's notices from the replica, newest first; the id seen (the service's, or this device's when
 * newer: changes re-render), what the service has recorded, and the unread count.
 */
export function useNotices() {
  const user = useUser();
  const notices = useReplica<NoticeView>('notices');
  const reads = useReplica<NoticeReadView>('noticeReads');
  const pending = usePendingMutations(NOTICE_SEEN_PATH);
  const member = user?.id ?? '';
  const local = useSyncExternalStore(
    subscribe,
    () => (member ? seenNoticeId(member) : 0),
    () => 0,
  );
  const recorded = recordedSeen(reads.records, pending);
  const seen = Math.max(local, recorded);
  const unread = notices.records.filter((n) => isUnread(n, seen)).length;
  // The device has answered with both (a fresh device's first pull may still bring more).
  const loaded = notices.loaded && reads.loaded;
  return { notices, seen, recorded, unread, member, loaded };
}
