/**
 * The hourly sweep (issue 11 item 7): expired or used captchas, expired or revoked sessions, expired passkey
 * challenges (issue 27), and rate-limit
 * rows whose hits have all left their window are deleted, so storage does not grow with every captcha
 * fetched and every session opened. Deleting them changes no answer: a missing captcha or session is
 * refused exactly as an expired one, and a rate row with no recent hit counts zero.
 */
import type { Ctx } from '../context';
import type { PeriodicHook } from '../jobs';
import { passkeyChallenges } from '../passkeys/tables';
import { rateLimits } from '../security/rateLimit';
import { sessions } from '../security/sessions';
import { captchas } from './captcha';

export const SWEEP_EVERY_MS = 60 * 60_000;

export async function sweepExpired(ctx: Ctx): Promise<void> {
  for (const c of await ctx.tx.scan(captchas)) {
    if (c.expiresAt <= ctx.now || c.usedAt !== null) ctx.tx.delete(captchas, c.id);
  }
  for (const s of await ctx.tx.scan(sessions)) {
    if (s.expiresAt <= ctx.now || s.revokedAt !== null) ctx.tx.delete(sessions, s.id);
  }
  for (const c of await ctx.tx.scan(passkeyChallenges)) {
    if (c.expiresAt <= ctx.now) ctx.tx.delete(passkeyChallenges, c.id);
  }
  const window = Math.max(
    ctx.config.loginFailWindowMs,
    ctx.config.captchaWindowMs,
    ctx.config.recipientLookupWindowMs,
  );
  for (const r of await ctx.tx.scan(rateLimits)) {
    if (r.hits.every((t) => t <= ctx.now - window)) ctx.tx.delete(rateLimits, r.id);
  }
}

export const sweepHook: PeriodicHook = {
  name: 'accounts.sweep',
  intervalMs: SWEEP_EVERY_MS,
  run: (ctx) => sweepExpired(ctx),
};
