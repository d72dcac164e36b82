/**
 * Login, logout and getuser. Login failures are counted per account (10 per 15 minutes, then 429 even for
 * the right password) and answer 2016 whether the account or the password was wrong, so the answer does
 * not reveal which usernames exist. Login's data is a JSON string (API.md). A right password on a device the
 * member has not logged in from asks for the second factor when two-factor authentication is on
 * (devices/history.ts completeLogin).
 */
import type { Ctx } from '../context';
import type { LoginUser } from '../contract';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import { body, text } from '../schema';
import { clientOf } from '../devices/client';
import { completeLogin } from '../devices/history';
import { addHit, clearHits, recentHits } from '../security/rateLimit';
import { revokeSession } from '../security/sessions';
import { findForLogin } from './lookup';
import { effectiveVip, vipName, type MemberRow } from './tables';
import { memberView } from './view';

export function loginRateKey(accountText: string, memberId: string | undefined): string {
  return memberId ? `login:${memberId}` : `login:?${accountText.trim().toLowerCase()}`;
}

export const loginHandler = handler({
  auth: false,
  // `code`: the second factor, asked for (6101) only on a new device of a member with two-factor on.
  body: body({ username: text(300), password: text(512), code: text(64).optional() }),
  run: async (ctx, input) => {
    if (!input.username.trim()) throw fail(Codes.usernameEmpty, 'Username is required');
    if (!input.password) throw fail(Codes.passwordEmpty, 'Login password is required');
    const member = await findForLogin(ctx.tx, input.username);
    const rateKey = loginRateKey(input.username, member?.id);
    const { loginFailLimit: limit, loginFailWindowMs: window } = ctx.config;
    if ((await recentHits(ctx.tx, rateKey, ctx.now, window)) >= limit) {
      throw fail(Codes.tooManyRequests, 'Too many failed logins: try again in 15 minutes');
    }
    // An unknown username costs one hash too (timing says nothing about who exists) and writes nothing:
    // a scan of random names must not grow storage. The per-IP and global limits (server) bound it.
    const matches = await ctx.hashing.verify(input.password, member?.passwordHash);
    if (!member || !matches) {
      // Both end with the same unit after the rollback, reading the name's failure count: a real account's
      // adds a hit, an unknown name's writes nothing (on SQL the same round trips: the write travels with
      // the COMMIT), so the work besides the hash does not tell them apart either.
      ctx.onFailure(async (after) => {
        if (member) await addHit(after.tx, rateKey, after.now, window);
        else await recentHits(after.tx, rateKey, after.now, window);
      });
      throw fail(Codes.credentialsWrong, 'Account or password is wrong');
    }
    if (member.status !== 'active')
      throw fail(Codes.accountAbnormal, 'This account is abnormal: contact customer service');
    const token = await completeLogin(ctx, member, clientOf(ctx), 'password', input.code);
    clearHits(ctx.tx, rateKey);
    return loginAnswer(ctx, member, token);
  },
});

/** Login's data (API.md): a JSON string of the member's LoginUser, for a password or a passkey login. */
export async function loginAnswer(ctx: Ctx, member: MemberRow, token: string): Promise<string> {
  const view = await memberView(ctx, member);
  const user: LoginUser = {
    id: member.id,
    token,
    username: member.username,
    vip: vipName(effectiveVip(member, ctx.now)),
    balance: view.balance,
  };
  return JSON.stringify(user);
}

export const logoutHandler = handler({
  auth: true,
  run: async (ctx) => {
    await revokeSession(ctx.tx, ctx.sessionId, ctx.now);
    return null;
  },
});

export const getUserHandler = handler({
  auth: true,
  run: async (ctx) => memberView(ctx, ctx.member),
});
