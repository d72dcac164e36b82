/**
 * Captcha (API.md GET /index/index/verify). A 4-digit code drawn from ctx.secrets, drawn as pen strokes in an
 * SVG data URL (captcha-image.ts: no text a script could read), valid 5 minutes and for ONE registration attempt (used even if the attempt fails,
 * so codes cannot be tried repeatedly). 30 per minute per engine, then 429. Demo mode also returns the code.
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import { addHit, recentHits } from '../security/rateLimit';
import { defineTable } from '../store/port';
import { captchaEntropyBytes, captchaSvg } from './captcha-image';

export interface CaptchaRow {
  id: string;
  code: string;
  expiresAt: number;
  usedAt: number | null;
}

export const captchas = defineTable<CaptchaRow>('captchas');

const RATE_KEY = 'captcha:engine';

/** The code drawn as strokes from fresh secret bytes (captcha-image.ts), as a data URL. */
function svg(ctx: Ctx, code: string): string {
  const body = captchaSvg(code, ctx.entropy(captchaEntropyBytes(code.length)));
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(body)}`;
}

export const verifyHandler = handler({
  method: 'GET',
  auth: false,
  run: async (ctx) => {
    if (
      (await recentHits(ctx.tx, RATE_KEY, ctx.now, ctx.config.captchaWindowMs)) >= ctx.config.captchaLimit
    ) {
      throw fail(Codes.tooManyRequests, 'Too many requests: wait a minute and try again');
    }
    await addHit(ctx.tx, RATE_KEY, ctx.now, ctx.config.captchaWindowMs);
    const code = await ctx.secrets.digits(4, 'captcha');
    const id = await ctx.ids.next('captcha');
    // The key is unguessable so one visitor cannot spend another's captcha.
    const key = `${id}.${(await ctx.secrets.token()).slice(0, 16)}`;
    ctx.tx.put(captchas, { id: key, code, expiresAt: ctx.now + ctx.config.captchaTtlMs, usedAt: null });
    const data: { key: string; image: string; code?: string } = { key, image: svg(ctx, code) };
    if (ctx.config.demo) data.code = code;
    return data;
  },
});

/** Spends the captcha `key` and checks `code` (2010 empty, 2013 wrong, expired or used). */
export async function useCaptcha(ctx: Ctx, key: string, code: string): Promise<void> {
  if (code.trim().length === 0 || key.trim().length === 0)
    throw fail(Codes.captchaEmpty, 'Verification code is required');
  const row = await ctx.tx.get(captchas, key);
  if (!row || row.usedAt !== null || row.expiresAt <= ctx.now) {
    throw fail(Codes.captchaWrong, 'Verification code is wrong or has expired: get a new one');
  }
  const spent = { ...row, usedAt: ctx.now };
  ctx.tx.put(captchas, spent);
  // Spent even when the registration fails afterwards.
  ctx.onFailure(async (after) => void after.tx.put(captchas, spent));
  if (row.code !== code.trim()) throw fail(Codes.captchaWrong, 'Verification code is wrong');
}
