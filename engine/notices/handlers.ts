/**
 * The notices' read state (issue 26 item 4; API.md "Price alerts", notices read): `/api/notice/seen`
 * records the newest notice id the member has seen, on the service, so each device of theirs counts the same
 * notices unread. It only moves forward (a replay through the outbox, or a device that looked earlier,
 * changes nothing) and names one of the member's own notices (6206 otherwise, nothing written). The row
 * syncs as `noticeReads`.
 */
import { z } from 'zod';
import { notices } from '../devices/tables';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body } from '../schema';
import { noticeReads } from './tables';
import { noticeReadView, type NoticeReadView } from './view';

/** A notice id as the engine's counters make them: a positive decimal, no leading zero, a safe integer. */
const noticeId = z.string().regex(/^[1-9][0-9]{0,14}$/, 'must be a notice id');

export const noticesDomain: Domain = {
  name: 'notices',
  handlers: {
    '/api/notice/seen': handler({
      auth: true,
      body: body({ id: noticeId }),
      run: async (ctx, input): Promise<NoticeReadView> => {
        const notice = await ctx.tx.get(notices, input.id);
        if (!notice || notice.memberId !== ctx.member.id) {
          throw fail(Codes.noticeUnknown, 'No such notice on this account');
        }
        const row = await ctx.tx.get(noticeReads, ctx.member.id);
        if (row && Number(row.seen) >= Number(input.id)) return noticeReadView(row);
        const next = { id: ctx.member.id, memberId: ctx.member.id, seen: input.id, updatedAt: ctx.now };
        ctx.tx.put(noticeReads, next);
        return noticeReadView(next);
      },
    }),
  },
};
