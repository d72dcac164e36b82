/**
 * Login, logout and getuser. Login failures are counted per account (10 per 15 minutes, then 429 even for
 * the right password), and per name for a name no account has (under a keyed hash of the name), and answer
 * 2016 whether the account or the password was wrong, so neither the answer nor its time nor the 429 reveals
 * which usernames exist. Login's data is a JSON string (API.md). A right password on a device the
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
import { boxKeyedHash, boxKeyText } from '../twofactor/box';
import { findForLogin } from './lookup';
import { effectiveVip, vipName, type MemberRow } from './tables';
import { memberView } from './view';

/** A member's login failure counter. */
export function loginRateKey(memberId: string): string {
  return `login:${memberId}`;
}

/**
 * The failure counter of a name no account has: `login:?` and a keyed hash of the name under the secret box
 * key (kept outside the database on a live server), so the stored row names no one and cannot be matched
 * against a guessed name without the key. Rows whose hits have left the window go at the hourly sweep
 * (accounts/sweep.ts); the per-IP and global login limits (server) bound how many there are.
 */
export function unknownNameRateKey(keyText: string | undefined, accountText: string): string {
  return `login:?${boxKeyedHash(keyText, 'strata-login-name-counter', accountText.trim().toLowerCase())}`;
}

export const loginHandler = handler({
  auth: false,
  // `code`: the second factor, asked for (6101) only on a new device of a member with two-factor on.
  body: body({ username: text(300), password: text(512), code: text(64).optional() }),
  run: async (ctx, input) => {
    if (!input.username.trim()) throw fail(Codes.usernameEmpty, 'Username is required');
    if (!input.password) throw fail(Codes.passwordEmpty, 'Login password is required');
    // The key is read whether or not the name is known (the same reads either way), beside the name's rows.
    const [member, keyText] = await Promise.all([findForLogin(ctx.tx, input.username), boxKeyText(ctx)]);
    const unknownKey = unknownNameRateKey(keyText, input.username);
    const rateKey = member ? loginRateKey(member.id) : unknownKey;
    const { loginFailLimit: limit, loginFailWindowMs: window } = ctx.config;
    if ((await recentHits(ctx.tx, rateKey, ctx.now, window)) >= limit) {
      throw fail(Codes.tooManyRequests, 'Too many failed logins: try again in 15 minutes');
    }
    // An unknown username costs one hash too (timing says nothing about who exists).
    const matches = await ctx.hashing.verify(input.password, member?.passwordHash);
    if (!member || !matches) {
      // Both end with the same unit after the rollback, adding a hit to the name's failure counter: the
      // same read, the same write and a COMMIT that flushes the WAL either way (a read-only COMMIT of the
      // unknown name's path answered ~23 ms sooner under load on PostgreSQL, 2026-11-29), and the 11th
      // failure answers 429 for an unknown name as for a known one.
      ctx.onFailure(async (after) => {
        await addHit(after.tx, rateKey, after.now, window);
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
