/**
 * Sending a member a notice: a row in `notices` (synced to their devices: the feed they read) and a feed
 * message `{ type: 'notice', data: { memberId, notice } }` for the devices online now. Every notice carries the
 * member's anti-phishing code as it is at sending, so a message without it (or with another) is not ours.
 * E-mail would carry it the same way (noticeMail).
 */
import { toSeconds, type Ctx } from '../context';
import { memberSecurity } from '../twofactor/tables';
import type { NoticeView } from '../twofactor/wire';
import { notices, type NoticeKind, type NoticeRow } from './tables';

export function noticeView(row: NoticeRow): NoticeView {
  return {
    id: row.id,
    kind: row.kind,
    params: row.params,
    antiPhishing: row.antiPhishing,
    createdAt: toSeconds(row.createdAt),
  };
}

export async function notify(
  ctx: Ctx,
  memberId: string,
  kind: NoticeKind,
  params: Record<string, string> = {},
): Promise<NoticeRow> {
  const security = await ctx.tx.get(memberSecurity, memberId);
  const row: NoticeRow = {
    id: await ctx.ids.next('notice'),
    memberId,
    kind,
    params,
    antiPhishing: security?.antiPhishing ?? null,
    createdAt: ctx.now,
  };
  ctx.tx.put(notices, row);
  ctx.emit({ type: 'notice', data: { memberId, notice: noticeView(row) } });
  return row;
}
