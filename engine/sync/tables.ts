/**
 * Sync storage. `syncResults` remembers the answer to every replayed mutation (keyed by member and mutation
 * id, so one member can neither read nor collide with another's); `changes` is the per-member change log
 * that /api/sync/pull pages through: one row per (member, record) holding the seq of its latest change,
 * so a fresh device pulls current state, not history. The log names records; pull renders their views.
 */
import { defineTable } from '../store/port';

export interface SyncResultRow {
  /** `<memberId>:<mutationId>` */
  id: string;
  memberId: string;
  mutationId: string;
  clientId: string;
  name: string;
  /**
   * SHA-256 of the call's path and body without its secrets (sync/push.ts mutationFingerprint): a repeat of
   * the id with another call or body is refused (422) instead of answered. Absent on rows recorded before.
   */
  fingerprint?: string;
  code: number;
  msg: string;
  data: unknown;
  at: number;
}

export type ChangeOp = 'put' | 'delete';

/** Records per bucket of a member's change sequence: pull reads a member's log one bucket query at a time. */
export const BUCKET = 256;

export interface ChangeRow {
  /** `<memberId>|<table>|<rowId>`: one row per record, moved to a new seq by each change of it. */
  id: string;
  memberId: string;
  table: string;
  rowId: string;
  /** The member's own sequence number of the record's latest change. */
  seq: number;
}

/** `epoch`: random per database, part of every cursor, so a cursor from before a reset is refused. */
export interface SyncMetaRow {
  id: string;
  value: string;
}

export const syncResults = defineTable<SyncResultRow>('syncResults');
export const syncMeta = defineTable<SyncMetaRow>('syncMeta');
export const changes = defineTable<ChangeRow>('changes', {
  bucket: (c) => bucketKey(c.memberId, Math.floor(c.seq / BUCKET)),
});

export function bucketKey(memberId: string, bucket: number): string {
  return `${memberId}:${bucket}`;
}

export function resultId(memberId: string, mutationId: string): string {
  return `${memberId}:${mutationId}`;
}

export function changeId(memberId: string, table: string, rowId: string): string {
  return `${memberId}|${table}|${rowId}`;
}

/** The `counters` kind holding a member's last change seq. */
export function seqKind(memberId: string): string {
  return `sync:${memberId}`;
}
