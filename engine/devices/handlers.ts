/**
 * Devices and login history (issue 27 item 5; API.md "Member security"): the member's live sessions with the
 * device and network each was opened from ("log out this device", "log out all other devices"), the logins
 * of the account, and the notices the service sent.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { toSeconds, type AuthCtx } from '../context';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body, listBody, paginate } from '../schema';
import { sessions, type SessionRow } from '../security/sessions';
import type { LoginView, SessionView } from '../twofactor/wire';
import { noticeView, notify } from './notices';
import { logins, notices } from './tables';

/** The handle a member sees for a session: never its token, nor the token's stored digest. */
function handleOf(sessionId: string): string {
  return bytesToHex(sha256(utf8ToBytes(`strata-session:${sessionId}`))).slice(0, 24);
}

async function liveSessions(ctx: AuthCtx): Promise<SessionRow[]> {
  const rows = await ctx.tx.query(sessions, 'member', ctx.member.id);
  return rows.filter((s) => s.revokedAt === null && s.expiresAt > ctx.now);
}

function sessionView(ctx: AuthCtx, s: SessionRow): SessionView {
  return {
    id: handleOf(s.id),
    current: s.id === ctx.sessionId,
    device: s.device ?? null,
    place: s.place ?? 'unknown',
    network: s.network ?? null,
    method: s.method ?? 'password',
    createdAt: toSeconds(s.createdAt),
    expiresAt: toSeconds(s.expiresAt),
  };
}

/** Newest first; rows of the same time by id (numeric ids as numbers, session digests as text). */
function byNewest<T extends { id: string }>(rows: T[], at: (row: T) => number): T[] {
  const order = (a: string, b: string) => Number(b) - Number(a) || (a < b ? 1 : a > b ? -1 : 0);
  return [...rows].sort((a, b) => at(b) - at(a) || order(a.id, b.id));
}

export const devicesDomain: Domain = {
  name: 'devices',
  handlers: {
    '/api/security/sessions': handler({
      auth: true,
      run: async (ctx) => {
        const live = await liveSessions(ctx);
        // This device first, then the newest.
        const list = byNewest(live, (s) => s.createdAt)
          .map((s) => sessionView(ctx, s))
          .sort((a, b) => Number(b.current) - Number(a.current));
        return { list };
      },
    }),

    '/api/security/sessions/logout': handler({
      auth: true,
      body: body({ id: z.string().max(64) }),
      run: async (ctx, input) => {
        const target = (await liveSessions(ctx)).find((s) => handleOf(s.id) === input.id);
        if (!target) throw fail(Codes.notFound, 'No such session: it may have ended already');
        ctx.tx.put(sessions, { ...target, revokedAt: ctx.now });
        return null;
      },
    }),

    '/api/security/sessions/logoutOthers': handler({
      auth: true,
      run: async (ctx) => {
        const others = (await liveSessions(ctx)).filter((s) => s.id !== ctx.sessionId);
        for (const s of others) ctx.tx.put(sessions, { ...s, revokedAt: ctx.now });
        if (others.length > 0)
          await notify(ctx, ctx.member.id, 'sessions.ended', { count: String(others.length) });
        return { ended: others.length };
      },
    }),

    '/api/security/logins': handler({
      auth: true,
      body: listBody,
      run: async (ctx, input) => {
        const rows = byNewest(await ctx.tx.query(logins, 'member', ctx.member.id), (l) => l.at);
        const list: LoginView[] = rows.map((l) => ({
          id: l.id,
          time: toSeconds(l.at),
          method: l.method,
          device: l.device,
          place: l.place,
          network: l.network,
          newDevice: l.newDevice,
          secondFactor: l.secondFactor,
        }));
        return paginate(list, input);
      },
    }),

    '/api/security/notices': handler({
      auth: true,
      body: listBody,
      run: async (ctx, input) => {
        const rows = byNewest(await ctx.tx.query(notices, 'member', ctx.member.id), (n) => n.createdAt);
        return paginate(rows.map(noticeView), input);
      },
    }),
  },
};
