/**
 * Two-factor authentication and the anti-phishing code (issue 27 items 1 and 6; API.md "Member security").
 *
 * - setup (login password) draws a new authenticator key, sealed, good for `twoFactorSetupMs`; the app shows
 *   it as a QR code. enable (a first code from the app) turns it on and hands out the recovery codes once.
 * - disable and recovery/renew are security changes: the second factor first (require.ts).
 * - antiphishing sets (or, with null, removes) the phrase every notice then carries; a security change too.
 */
import { z } from 'zod';
import { toSeconds } from '../context';
import { notify } from '../devices/notices';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import type { AuthCtx } from '../context';
import type { Domain } from '../routes';
import { body, text } from '../schema';
import { addHit, recentHits } from '../security/rateLimit';
import { loginRateKey } from '../accounts/session';
import { memberPasskeys } from '../passkeys/tables';
import { ensureBoxKey, open, seal } from './box';
import { newRecoveryCodes } from './recovery';
import { requireSecondFactor, secondFactorShape, securityOf } from './require';
import { memberSecurity, type MemberSecurityRow } from './tables';
import { encodeSecret, otpauthUri, TOTP_ISSUER, totpStep } from './totp';
import type { SecurityOverview, TotpSetup } from './wire';

const PHRASE_MAX = 20;

/** Letters (any script), digits, spaces and a few marks: nothing a message could render as markup. */
export function antiPhishingProblem(phrase: string): string | null {
  const trimmed = phrase.trim();
  if (!trimmed) return 'Enter an anti-phishing code';
  if ([...trimmed].length < 4 || [...trimmed].length > PHRASE_MAX)
    return `The anti-phishing code needs 4 to ${PHRASE_MAX} characters`;
  if (!/^[\p{L}\p{N}\p{M} _.!?-]+$/u.test(trimmed)) return 'Use letters, digits, spaces and . _ - ! ? only';
  return null;
}

async function requirePassword(ctx: AuthCtx, password: string): Promise<void> {
  if (!password) throw fail(Codes.passwordEmpty, 'Login password is required');
  const rateKey = loginRateKey(ctx.member.id);
  const { loginFailLimit: limit, loginFailWindowMs: window } = ctx.config;
  if ((await recentHits(ctx.tx, rateKey, ctx.now, window)) >= limit) {
    throw fail(Codes.tooManyRequests, 'Too many failed attempts: try again in 15 minutes');
  }
  if (!(await ctx.hashing.verify(password, ctx.member.passwordHash))) {
    ctx.onFailure(async (after) => addHit(after.tx, rateKey, after.now, window));
    throw fail(Codes.message, 'The login password is wrong');
  }
}

function put(ctx: AuthCtx, row: MemberSecurityRow): void {
  ctx.tx.put(memberSecurity, { ...row, updatedAt: ctx.now });
}

export async function overview(ctx: AuthCtx): Promise<SecurityOverview> {
  const row = await securityOf(ctx, ctx.member.id);
  const locked = row.lockedUntil !== null && row.lockedUntil > ctx.now;
  return {
    twoFactor: {
      on: row.totp !== null,
      enabledAt: row.totp ? toSeconds(row.totp.enabledAt) : null,
      recoveryLeft: row.totp ? row.recovery.filter((r) => r.usedAt === null).length : 0,
      lockedUntil: locked && row.lockedUntil !== null ? toSeconds(row.lockedUntil) : null,
    },
    passkeys: (await ctx.tx.query(memberPasskeys, 'member', ctx.member.id)).length,
    antiPhishing: row.antiPhishing,
  };
}

export const twoFactorDomain: Domain = {
  name: 'twofactor',
  init: ensureBoxKey,
  handlers: {
    '/api/security/overview': handler({ auth: true, run: overview }),

    '/api/security/totp/setup': handler({
      auth: true,
      body: body({ password: text(512) }),
      run: async (ctx, input): Promise<TotpSetup> => {
        const row = await securityOf(ctx, ctx.member.id);
        if (row.totp) throw fail(Codes.twoFactorAlreadyOn, 'Two-factor authentication is already on');
        await requirePassword(ctx, input.password);
        const secret = encodeSecret(await ctx.secrets.bytes(20, 'totp'));
        put(ctx, { ...row, setup: { box: await seal(ctx, secret), startedAt: ctx.now } });
        return {
          secret,
          uri: await otpauthUri(secret, ctx.member.username),
          issuer: TOTP_ISSUER,
          account: ctx.member.username,
          expiresAt: toSeconds(ctx.now + ctx.config.twoFactorSetupMs),
        };
      },
    }),

    '/api/security/totp/enable': handler({
      auth: true,
      body: body({ code: text(64) }),
      run: async (ctx, input) => {
        const row = await securityOf(ctx, ctx.member.id);
        if (row.totp) throw fail(Codes.twoFactorAlreadyOn, 'Two-factor authentication is already on');
        if (!row.setup || row.setup.startedAt + ctx.config.twoFactorSetupMs <= ctx.now) {
          throw fail(Codes.twoFactorNotOn, 'The set-up has expired: start again');
        }
        if (!input.code.trim()) {
          throw fail(Codes.secondFactorRequired, 'Enter the code from your authenticator app', {
            action: 'security',
            methods: ['totp'],
          });
        }
        // Not counted toward the lock: two-factor authentication is not on yet, nothing is protected by it.
        const step = await totpStep(await open(ctx, row.setup.box), input.code, ctx.wallNow);
        if (step === null) throw fail(Codes.secondFactorWrong, 'The code is wrong', { remaining: null });
        const { codes, rows } = await newRecoveryCodes(ctx, ctx.config.recoveryCodeCount);
        put(ctx, {
          ...row,
          totp: { box: row.setup.box, enabledAt: ctx.now, lastStep: step },
          setup: null,
          recovery: rows,
          fails: 0,
          lockedUntil: null,
        });
        await notify(ctx, ctx.member.id, 'twoFactor.on');
        return { recoveryCodes: codes };
      },
    }),

    '/api/security/totp/disable': handler({
      auth: true,
      body: body(secondFactorShape),
      run: async (ctx, input) => {
        const row = await securityOf(ctx, ctx.member.id);
        if (!row.totp) throw fail(Codes.twoFactorNotOn, 'Two-factor authentication is off');
        await requireSecondFactor(ctx, ctx.member, 'security', input);
        const fresh = await securityOf(ctx, ctx.member.id);
        put(ctx, { ...fresh, totp: null, setup: null, recovery: [], fails: 0, lockedUntil: null });
        await notify(ctx, ctx.member.id, 'twoFactor.off');
        return null;
      },
    }),

    '/api/security/recovery/renew': handler({
      auth: true,
      body: body(secondFactorShape),
      run: async (ctx, input) => {
        const row = await securityOf(ctx, ctx.member.id);
        if (!row.totp) throw fail(Codes.twoFactorNotOn, 'Two-factor authentication is off');
        await requireSecondFactor(ctx, ctx.member, 'security', input);
        const fresh = await securityOf(ctx, ctx.member.id);
        const { codes, rows } = await newRecoveryCodes(ctx, ctx.config.recoveryCodeCount);
        put(ctx, { ...fresh, recovery: rows });
        await notify(ctx, ctx.member.id, 'twoFactor.recoveryRenewed');
        return { recoveryCodes: codes };
      },
    }),

    '/api/security/antiphishing': handler({
      auth: true,
      body: body({ phrase: z.string().max(200).nullable(), ...secondFactorShape }),
      run: async (ctx, input) => {
        const phrase = input.phrase === null ? null : input.phrase.trim().replace(/\s+/g, ' ');
        const problem = phrase === null ? null : antiPhishingProblem(phrase);
        if (problem) throw fail(Codes.antiPhishingInvalid, problem);
        await requireSecondFactor(ctx, ctx.member, 'security', input);
        const row = await securityOf(ctx, ctx.member.id);
        put(ctx, { ...row, antiPhishing: phrase });
        // Sent after the change: the notice already carries the new code.
        await notify(ctx, ctx.member.id, 'antiPhishing.set', { set: phrase === null ? 'no' : 'yes' });
        return { antiPhishing: phrase };
      },
    }),
  },
};
