/**
 * One-time recovery codes: 80 random bits each, shown once as four groups of four characters of Crockford's
 * base32 (no I, L, O or U), stored only as SHA-256 digests. A guess has a 2^-80 chance, so a slow hash adds
 * nothing (the same reasoning as session tokens: engine/security/sessions.ts). Members may type them in any
 * case, with or without the dashes.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Ctx } from '../context';
import type { RecoveryCodeRow } from './tables';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function format(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out.match(/.{4}/g)?.join('-') ?? out;
}

/** The canonical form of a typed code (lower case, no dashes or spaces, Crockford's look-alikes folded). */
export function normaliseRecovery(code: string): string {
  return code
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replace(/[il]/g, '1')
    .replace(/o/g, '0');
}

export function recoveryShaped(code: string): boolean {
  return /^[0-9a-hjkmnp-tv-z]{16}$/.test(normaliseRecovery(code));
}

export function digestRecovery(code: string): string {
  return bytesToHex(sha256(utf8ToBytes(`strata-recovery:${normaliseRecovery(code)}`)));
}

/** `count` fresh codes: what the member is shown once, and what is stored. */
export async function newRecoveryCodes(
  ctx: Ctx,
  count: number,
): Promise<{ codes: string[]; rows: RecoveryCodeRow[] }> {
  const codes: string[] = [];
  for (let i = 0; i < count; i++) codes.push(format(await ctx.secrets.bytes(10, 'recovery')));
  return { codes, rows: codes.map((code) => ({ hash: digestRecovery(code), usedAt: null })) };
}
