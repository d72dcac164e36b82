/**
 * How far the member has read their notices (issue 26 item 4; API.md "Price alerts", notices read): one row
 * per member, the newest notice id they have seen on any device of theirs. It only moves forward, so the
 * unread count is the same on each device once it has synced. Times are ms (engine/README.md).
 */
import { defineTable } from '../store/port';

export interface NoticeReadRow {
  /** The member's id: one row each. */
  id: string;
  memberId: string;
  /** The newest notice id seen (a decimal counter string, engine/ids.ts). */
  seen: string;
  updatedAt: number;
}

export const noticeReads = defineTable<NoticeReadRow>('noticeReads', { member: (r) => r.memberId });
