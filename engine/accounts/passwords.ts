/**
 * Changing and recovering credentials: editPsw (the old password, counted toward the login limit; signs out
 * the other sessions), edituserPsw (the old key through requireKey), question/forget/forgetKey (by username;
 * forget and forgetKey hold withdrawals for 24 h and sign out every session). All four are security changes
 * confirmed by the second factor when it is on. Codes and decisions: docs/DECISIONS.md "Accounts",
 * docs/RULES.md A9.
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import { body, text } from '../schema';
import { normaliseAnswer } from '../security/hashing';
import { requireKey } from '../security/key';
import { addHit, recentHits } from '../security/rateLimit';
import { revokeAll } from '../security/sessions';
import { requireSecondFactor, secondFactorShape } from '../twofactor/require';
import { findForLogin } from './lookup';
import { loginRateKey } from './session';
import { members, type MemberRow } from './tables';
import { checkKey, checkPassword, SECRET_MAX } from './validation';

async function hash(ctx: Ctx, secret: string): Promise<string> {
  return ctx.hashing.hash(secret, await ctx.secrets.bytes(16, 'salt'));
}

async function accountFor(ctx: Ctx, username: string): Promise<MemberRow> {
  if (!username.trim()) throw fail(Codes.usernameEmpty, 'Username is required');
  const member = await findForLogin(ctx.tx, username);
  if (!member) throw fail(Codes.accountNotFound, 'Account does not exist');
  const key = loginRateKey(member.id);
  if ((await recentHits(ctx.tx, key, ctx.now, ctx.config.loginFailWindowMs)) >= ctx.config.loginFailLimit) {
    throw fail(Codes.tooManyRequests, 'Too many failed attempts: try again in 15 minutes');
  }
  return member;
}

function countFailure(ctx: Ctx, member: MemberRow): void {
  const key = loginRateKey(member.id);
  ctx.onFailure(async (after) => addHit(after.tx, key, after.now, ctx.config.loginFailWindowMs));
}

async function requireAnswer(ctx: Ctx, member: MemberRow, answer: string): Promise<void> {
  if (!answer.trim()) throw fail(Codes.questionOrAnswerEmpty, 'Secret answer is required');
  if (!(await ctx.hashing.verify(normaliseAnswer(answer), member.answerHash))) {
    countFailure(ctx, member);
    throw fail(Codes.message, 'The secret answer is wrong');
  }
}

const secret = () => text(SECRET_MAX * 2);

export const editPswHandler = handler({
  auth: true,
  body: body({ oldPassword: secret(), password: secret(), repassword: secret(), ...secondFactorShape }),
  run: async (ctx, input) => {
    if (!input.oldPassword) throw fail(Codes.passwordEmpty, 'The old password is required');
    const problem = checkPassword(input.password, input.repassword);
    if (problem) throw problem;
    const rateKey = loginRateKey(ctx.member.id);
    if (
      (await recentHits(ctx.tx, rateKey, ctx.now, ctx.config.loginFailWindowMs)) >= ctx.config.loginFailLimit
    ) {
      throw fail(Codes.tooManyRequests, 'Too many failed attempts: try again in 15 minutes');
    }
    if (!(await ctx.hashing.verify(input.oldPassword, ctx.member.passwordHash))) {
      countFailure(ctx, ctx.member);
      throw fail(Codes.message, 'The old password is wrong');
    }
    await requireSecondFactor(ctx, ctx.member, 'security', input);
    ctx.tx.put(members, { ...ctx.member, passwordHash: await hash(ctx, input.password) });
    await revokeAll(ctx.tx, ctx.member.id, ctx.now, ctx.sessionId);
    return null;
  },
});

export const editKeyHandler = handler({
  auth: true,
  body: body({ oldKey: secret(), key: secret(), rekey: secret(), ...secondFactorShape }),
  run: async (ctx, input) => {
    const problem = checkKey(input.key, input.rekey);
    if (problem) throw problem;
    await requireKey(ctx, ctx.member, input.oldKey);
    await requireSecondFactor(ctx, ctx.member, 'security', input);
    const fresh = (await ctx.tx.get(members, ctx.member.id)) ?? ctx.member;
    ctx.tx.put(members, { ...fresh, keyHash: await hash(ctx, input.key) });
    return null;
  },
});

export const questionHandler = handler({
  auth: false,
  body: body({ username: text(300) }),
  run: async (ctx, input) => ({ question: (await accountFor(ctx, input.username)).question }),
});

export const forgetHandler = handler({
  auth: false,
  body: body({
    username: text(300),
    answer: text(200),
    password: secret(),
    repassword: secret(),
    code: secondFactorShape.code,
  }),
  run: async (ctx, input) => {
    const member = await accountFor(ctx, input.username);
    const problem = checkPassword(input.password, input.repassword);
    if (problem) throw problem;
    await requireAnswer(ctx, member, input.answer);
    await requireSecondFactor(ctx, member, 'security', { code: input.code });
    ctx.tx.put(members, {
      ...member,
      passwordHash: await hash(ctx, input.password),
      withdrawHoldUntil: ctx.now + ctx.config.resetWithdrawHoldMs,
    });
    await revokeAll(ctx.tx, member.id, ctx.now);
    return null;
  },
});

export const forgetKeyHandler = handler({
  auth: false,
  body: body({
    username: text(300),
    password: secret(),
    answer: text(200),
    key: secret(),
    rekey: secret(),
    code: secondFactorShape.code,
  }),
  run: async (ctx, input) => {
    const member = await accountFor(ctx, input.username);
    if (!input.password) throw fail(Codes.passwordEmpty, 'Login password is required');
    const problem = checkKey(input.key, input.rekey);
    if (problem) throw problem;
    if (!(await ctx.hashing.verify(input.password, member.passwordHash))) {
      countFailure(ctx, member);
      throw fail(Codes.credentialsWrong, 'Account or password is wrong');
    }
    await requireAnswer(ctx, member, input.answer);
    await requireSecondFactor(ctx, member, 'security', { code: input.code });
    ctx.tx.put(members, {
      ...member,
      keyHash: await hash(ctx, input.key),
      keyFails: 0,
      keyLockedUntil: null,
      withdrawHoldUntil: ctx.now + ctx.config.resetWithdrawHoldMs,
    });
    await revokeAll(ctx.tx, member.id, ctx.now);
    return null;
  },
});
