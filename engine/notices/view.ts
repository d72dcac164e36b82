/** What a member sees of their read state (the call's answer and the synced `noticeReads` row). */
import { toSeconds } from '../context';
import type { NoticeReadRow } from './tables';

export interface NoticeReadView {
  /** The member's id. */
  id: string;
  /** The newest notice id seen ("0": none yet). */
  seen: string;
  /** When it last moved (Unix seconds; 0: never). */
  time: number;
}

export function noticeReadView(row: NoticeReadRow): NoticeReadView {
  return { id: row.id, seen: row.seen, time: toSeconds(row.updatedAt) };
}
