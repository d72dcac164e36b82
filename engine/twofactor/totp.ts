/**
 * The authenticator app (TOTP, RFC 6238) through otplib, as the back office uses it (server/admin/auth.ts):
 * SHA-1, 6 digits, 30 s steps, one step of drift either way. otplib's default plugins (@noble/hashes,
 * @scure/base) run in the demo's worker and in Node alike. otplib loads on the first call that needs it: the
 * demo worker's boot (the first screen's wait) does not carry it.
 */
import { base32 } from '@scure/base';

const otplib = () => import('otplib');

export const TOTP_ISSUER = 'Strata';
const PERIOD_S = 30;

/** A new authenticator key: 160 random bits (RFC 4226's recommended length), base32 without padding. */
export function encodeSecret(bytes: Uint8Array): string {
  return base32.encode(bytes).replace(/=+$/, '');
}

export async function otpauthUri(secret: string, account: string): Promise<string> {
  const { generateURI } = await otplib();
  return generateURI({ issuer: TOTP_ISSUER, label: account, secret });
}

/** Whether `code` looks like an authenticator code (6 digits, spaces allowed as apps show them). */
export function totpShaped(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ''));
}

/** The time step `code` belongs to at `nowMs` (within one step of drift), or null when it matches none. */
export async function totpStep(secret: string, code: string, nowMs: number): Promise<number | null> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  try {
    const epoch = Math.floor(nowMs / 1000);
    const { verify } = await otplib();
    const result = await verify({ secret, token, epoch, epochTolerance: PERIOD_S });
    return result.valid ? Math.floor(epoch / PERIOD_S) + result.delta : null;
  } catch {
    return null;
  }
}
