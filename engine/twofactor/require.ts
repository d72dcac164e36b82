/**
 * The second-factor gate (docs/RULES.md A20-A24): every action a member with two-factor authentication must
 * confirm calls `requireSecondFactor(ctx, member, action, { code, passkey })` before it changes anything.
 * Off: 'none'. Otherwise no answer is 6101 (with `data.methods`), a passkey is verified (6110/6111), a
 * recovery code is accepted once, an authenticator code is refused while locked (6103), when wrong (6102,
 * counted past the call's rollback) or when already used (6104). Actions: 'login', 'withdraw', 'transfer',
 * 'security', 'addressBook'. Codes: docs/API.md.
 */
import { z } from 'zod';
import type { MemberRow } from '../accounts/tables';
import { toSeconds, type Ctx } from '../context';
import type { Tx } from '../store/tx';
import { Codes, fail } from '../errors';
import { memberPasskeys } from '../passkeys/tables';
import { verifyPasskeyFor, passkeyAnswer, type PasskeyAnswer } from '../passkeys/verify';
import { open } from './box';
import { digestRecovery, recoveryShaped } from './recovery';
import { emptySecurity, memberSecurity, type MemberSecurityRow } from './tables';
import { totpStep } from './totp';

export type SecondFactorAction = 'login' | 'withdraw' | 'transfer' | 'security' | 'addressBook';
export type SecondFactorMethod = 'totp' | 'recovery' | 'passkey';

export interface SecondFactorProof {
  /** An authenticator code (6 digits) or a recovery code. */
  code?: string | undefined;
  /** A passkey's answer to a challenge from /api/security/passkey/challenge for this action. */
  passkey?: PasskeyAnswer | undefined;
}

/** The optional request fields of every call behind the gate: spread into its body schema. */
export const secondFactorShape = {
  code: z.string().max(64).optional(),
  passkey: passkeyAnswer.optional(),
};

export async function securityOf(ctx: Ctx, memberId: string): Promise<MemberSecurityRow> {
  return (await ctx.tx.get(memberSecurity, memberId)) ?? emptySecurity(memberId, ctx.now);
}

/** Whether the member has two-factor authentication on (an authenticator confirmed). */
export async function twoFactorOn(ctx: Ctx, memberId: string): Promise<boolean> {
  return (await ctx.tx.get(memberSecurity, memberId))?.totp != null;
}

/** What a member with two-factor authentication can confirm with. */
export async function methodsOf(ctx: Ctx, memberId: string): Promise<SecondFactorMethod[]> {
  const passkeys = await ctx.tx.query(memberPasskeys, 'member', memberId);
  return passkeys.length > 0 ? ['totp', 'recovery', 'passkey'] : ['totp', 'recovery'];
}

function lockedError(until: number) {
  return fail(Codes.secondFactorLocked, 'Too many wrong codes: use a recovery code or try again later', {
    until: toSeconds(until),
  });
}

/**
 * Reads the security row requireSecondFactor reads for `memberId`, ahead (a handler's prefetch, with the
 * member the request claims to be): on SQL it travels with the session's statement, one round trip less.
 */
export function prefetchSecondFactor(tx: Tx, memberId: string): Promise<void> {
  return memberId ? tx.prefetch([[memberSecurity, memberId]]) : Promise.resolve();
}

export async function requireSecondFactor(
  ctx: Ctx,
  member: MemberRow,
  action: SecondFactorAction,
  proof: SecondFactorProof,
): Promise<'none' | SecondFactorMethod> {
  const row = await ctx.tx.get(memberSecurity, member.id);
  if (!row?.totp) return 'none';
  if (proof.passkey) {
    await verifyPasskeyFor(ctx, member.id, action, proof.passkey);
    return 'passkey';
  }
  const code = proof.code?.trim() ?? '';
  if (!code) {
    throw fail(Codes.secondFactorRequired, 'Enter the code from your authenticator app', {
      action,
      methods: await methodsOf(ctx, member.id),
    });
  }
  const locked = row.lockedUntil !== null && row.lockedUntil > ctx.now;
  if (recoveryShaped(code)) {
    const digest = digestRecovery(code);
    const index = row.recovery.findIndex((r) => r.usedAt === null && r.hash === digest);
    if (index >= 0) {
      const recovery = row.recovery.map((r, i) => (i === index ? { ...r, usedAt: ctx.now } : r));
      ctx.tx.put(memberSecurity, { ...row, recovery, fails: 0, lockedUntil: null, updatedAt: ctx.now });
      return 'recovery';
    }
    if (locked) throw lockedError(row.lockedUntil ?? ctx.now);
    return wrong(ctx, row);
  }
  if (locked) throw lockedError(row.lockedUntil ?? ctx.now);
  const step = await totpStep(await open(ctx, row.totp.box), code, ctx.wallNow);
  if (step === null) return wrong(ctx, row);
  if (step <= row.totp.lastStep) {
    throw fail(Codes.secondFactorReused, 'This code was already used: wait for the next one');
  }
  ctx.tx.put(memberSecurity, {
    ...row,
    totp: { ...row.totp, lastStep: step },
    fails: 0,
    lockedUntil: null,
    updatedAt: ctx.now,
  });
  return 'totp';
}

/** Counts a wrong code (kept although the call rolls back) and answers 6102, or 6103 at the limit. */
function wrong(ctx: Ctx, row: MemberSecurityRow): never {
  const fails = row.fails + 1;
  const lock = fails >= ctx.config.twoFactorFailLimit;
  const lockedUntil = lock ? ctx.now + ctx.config.twoFactorLockMs : row.lockedUntil;
  ctx.onFailure(async (after) => {
    const fresh = await after.tx.get(memberSecurity, row.id);
    if (fresh) {
      after.tx.put(memberSecurity, {
        ...fresh,
        fails: lock ? 0 : fails,
        lockedUntil,
        updatedAt: after.now,
      });
    }
  });
  if (lock) throw lockedError(lockedUntil ?? ctx.now);
  throw fail(Codes.secondFactorWrong, 'The code is wrong', {
    remaining: ctx.config.twoFactorFailLimit - fails,
  });
}
