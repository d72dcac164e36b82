/**
 * The notification centre's shared half (docs/SPEC.md §12): which notices the member has seen on this device
 * (the newest notice id seen, kept in localStorage per member), the unread count /user shows, and the group
 * of each notice kind. The notices themselves are the engine's `notices` rows in the device replica
 * (security notices, alerts fired, deposits credited, withdrawals sent, margin warnings, funding).
 */
import { useSyncExternalStore } from 'react';
import type { NoticeKind, NoticeView } from '../../engine/index';
import { useReplica } from '../sync/live';
import { useUser } from '../state/user-store';
import { readString, STORAGE_KEYS, writeString } from './storage';

export type NoticeGroup = 'alerts' | 'funds' | 'trading' | 'security';

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

/** The newest notice id the member has seen on this device (0: none). Notice ids are the engine's counters. */
export function seenNoticeId(memberId: string): number {
  const value = Number(readString(seenKey(memberId)) ?? '0');
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export function markNoticesSeen(memberId: string, notices: readonly Pick<NoticeView, 'id'>[]): void {
  const newest = notices.reduce((max, n) => Math.max(max, Number(n.id) || 0), 0);
  if (newest <= seenNoticeId(memberId)) return;
  writeString(seenKey(memberId), String(newest));
  for (const listener of listeners) listener();
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
  return (Number(notice.id) || 0) > seen;
}

/** The member's notices from the replica, newest first, with the id last seen here (changes re-render). */
export function useNotices() {
  const user = useUser();
  const notices = useReplica<NoticeView>('notices');
  const member = user?.id ?? '';
  const seen = useSyncExternalStore(
    subscribe,
    () => (member ? seenNoticeId(member) : 0),
    () => 0,
  );
  const unread = notices.records.filter((n) => isUnread(n, seen)).length;
  return { notices, seen, unread, member };
}
