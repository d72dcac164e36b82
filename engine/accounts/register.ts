/**
 * POST /api/index/register (SPEC.md §5). Checks run in a fixed order so a form with several mistakes
 * always gets the same answer: username, password, key, contact, secret question, captcha, uniqueness
 * (214/215/216), invitation code (1999). Secrets are hashed before anything is written.
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import { body, optionalText } from '../schema';
import { normaliseAnswer } from '../security/hashing';
import { useCaptcha } from './captcha';
import { members, type MemberRow } from './tables';
import {
  checkContact,
  checkKey,
  checkPassword,
  checkQuestion,
  checkUsername,
  emailKey,
  phoneKey,
  SECRET_MAX,
} from './validation';

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

async function newInviteCode(ctx: Ctx): Promise<string> {
  for (;;) {
    const raw = await ctx.secrets.bytes(8, 'invite');
    const code = [...raw].map((b) => INVITE_ALPHABET[b % INVITE_ALPHABET.length]).join('');
    if ((await ctx.tx.query(members, 'invite', code)).length === 0) return code;
  }
}

async function hash(ctx: Ctx, secret: string): Promise<string> {
  return ctx.hashing.hash(secret, await ctx.secrets.bytes(16, 'salt'));
}

export const registerHandler = handler({
  auth: false,
  body: body({
    username: optionalText(100),
    password: optionalText(SECRET_MAX * 2),
    repassword: optionalText(SECRET_MAX * 2),
    key: optionalText(SECRET_MAX * 2),
    rekey: optionalText(SECRET_MAX * 2),
    email: optionalText(300),
    phone: optionalText(40),
    invite: optionalText(40),
    verify: optionalText(20),
    verifyKey: optionalText(100),
    question: optionalText(200),
    answer: optionalText(200),
  }),
  run: async (ctx, input) => {
    const username = input.username?.trim() ?? '';
    const problem =
      checkUsername(username) ??
      checkPassword(input.password ?? '', input.repassword ?? '') ??
      checkKey(input.key ?? '', input.rekey ?? '') ??
      checkContact(input.email, input.phone) ??
      checkQuestion(input.question ?? '', input.answer ?? '');
    if (problem) throw problem;
    await useCaptcha(ctx, input.verifyKey ?? '', input.verify ?? '');

    const email = input.email?.trim() || null;
    const phone = input.phone?.trim() || null;
    if ((await ctx.tx.query(members, 'username', username.toLowerCase())).length > 0) {
      throw fail(Codes.usernameTaken, 'This username is already registered');
    }
    const eKey = emailKey(email ?? undefined);
    if (eKey && (await ctx.tx.query(members, 'email', eKey)).length > 0) {
      throw fail(Codes.emailTaken, 'This e-mail address is already registered');
    }
    const pKey = phoneKey(phone ?? undefined);
    if (pKey && (await ctx.tx.query(members, 'phone', pKey)).length > 0) {
      throw fail(Codes.phoneTaken, 'This phone number is already registered');
    }
    let invitedBy: string | null = null;
    const invite = input.invite?.trim().toUpperCase() ?? '';
    if (invite) {
      const inviter = (await ctx.tx.query(members, 'invite', invite))[0];
      if (!inviter) throw fail(Codes.inviteNotFound, 'Invitation code does not exist');
      invitedBy = inviter.id;
    }

    // Hashed before the id is drawn: a hash leaves the unit and runs it again (security/hashing.ts), and on
    // SQL a drawn id is a sequence value that a rolled-back attempt would leave as a gap.
    const passwordHash = await hash(ctx, input.password ?? '');
    const keyHash = await hash(ctx, input.key ?? '');
    const answerHash = await hash(ctx, normaliseAnswer(input.answer ?? ''));
    const member: MemberRow = {
      id: await ctx.ids.next('member'),
      username,
      usernameKey: username.toLowerCase(),
      email,
      emailKey: eKey,
      phone,
      phoneKey: pKey,
      passwordHash,
      keyHash,
      question: (input.question ?? '').trim(),
      answerHash,
      vip: 0,
      vipExpiresAt: null,
      inviteCode: await newInviteCode(ctx),
      invitedBy,
      createdAt: ctx.now,
      creditScore: 100,
      realNameStatus: 'none',
      status: 'active',
      keyFails: 0,
      keyLockedUntil: null,
      withdrawHoldUntil: null,
    };
    ctx.tx.put(members, member);
    return { id: member.id };
  },
});
