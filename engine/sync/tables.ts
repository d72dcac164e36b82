/**
 * Sync storage. `syncResults` remembers the answer to every replayed mutation (keyed by member and mutation
 * id, so one member can neither read nor collide with another's); `changes` is the per-member change log
 * that /api/sync/pull pages through; `changeHeads` points at the latest change of each record, so an older
 * change of the same record is dropped when a newer one is logged (a fresh device pulls current state, not
 * history).
 */
import { defineTable } from '../store/port';

export interface SyncResultRow {
  /** `<memberId>:<mutationId>` */
  id: string;
  memberId: string;
  mutationId: string;
  clientId: string;
  name: string;
  code: number;
  msg: string;
  data: unknown;
  at: number;
}

export type ChangeOp = 'put' | 'delete';

export interface ChangeRow {
  /** `<memberId>:<seq>`: pull reads the log by id, seq after seq, with no scan. */
  id: string;
  memberId: string;
  seq: number;
  table: string;
  rowId: string;
  op: ChangeOp;
  /** The member-visible view of the record (null for a delete). */
  record: unknown;
  at: number;
}

export interface ChangeHeadRow {
  /** `<memberId>|<table>|<rowId>` */
  id: string;
  seq: number;
}

export const syncResults = defineTable<SyncResultRow>('syncResults');
export const changes = defineTable<ChangeRow>('changes');
export const changeHeads = defineTable<ChangeHeadRow>('changeHeads');

export function resultId(memberId: string, mutationId: string): string {
  return `${memberId}:${mutationId}`;
}

export function changeId(memberId: string, seq: number): string {
  return `${memberId}:${seq}`;
}

export function headId(memberId: string, table: string, rowId: string): string {
  return `${memberId}|${table}|${rowId}`;
}

/** The `counters` kind holding a member's last change seq. */
export function seqKind(memberId: string): string {
  return `sync:${memberId}`;
}
