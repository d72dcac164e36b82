/**
 * Sealing secrets the engine must read back (authenticator keys): AES-256-GCM through WebCrypto (browsers,
 * the demo's worker and Node alike), a fresh 96-bit nonce per seal. Stored form `v1.<nonce b64>.<sealed b64>`.
 *
 * The key is `config.secretBoxKey` (a live server's TOTP_ENCRYPTION_KEY, kept outside the database), or
 * else a key drawn from `ctx.entropy` once per database and stored in `meta` (the demo, whose database is the
 * member's own device; a development server). Either way it never derives from the seed or any public value.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base64 } from '@scure/base';
import type { Ctx } from '../context';
import { meta } from '../site/handlers';

const META_KEY = 'security.secretBoxKey';
const keys = new Map<string, Promise<CryptoKey>>();

function importKey(raw: string): Promise<CryptoKey> {
  let key = keys.get(raw);
  if (!key) {
    const bytes = new Uint8Array(base64.decode(raw));
    if (bytes.length !== 32) throw new Error('The secret box key must be 32 bytes (base64)');
    key = globalThis.crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(raw, key);
  }
  return key;
}

/** Creates the per-database key when no key is configured (the domain's init; idempotent). */
export async function ensureBoxKey(ctx: Ctx): Promise<void> {
  if (ctx.config.secretBoxKey) return;
  if (await ctx.tx.get(meta, META_KEY)) return;
  ctx.tx.put(meta, { id: META_KEY, value: base64.encode(ctx.entropy(32)) });
}

/** The box key as configured or stored (base64), or undefined before the domain's init ran. */
export async function boxKeyText(ctx: Ctx): Promise<string | undefined> {
  return ctx.config.secretBoxKey || (await ctx.tx.get(meta, META_KEY))?.value;
}

/** Sub-keys derived from a box key, per key and purpose (HMAC-SHA256 of the purpose under the key). */
const subKeys = new Map<string, Uint8Array>();

/**
 * HMAC-SHA256 (hex) of `text` under a sub-key of the box key for `purpose`: a stored value that names no one
 * and cannot be matched against a guess without the key. Without a box key there is no hash (never a key
 * derived from a public value).
 */
export function boxKeyedHash(keyText: string | undefined, purpose: string, text: string): string {
  if (!keyText) throw new Error('No secret box key: the twofactor domain init did not run');
  const id = `${purpose}\n${keyText}`;
  let key = subKeys.get(id);
  if (!key) {
    key = hmac(sha256, utf8ToBytes(keyText), utf8ToBytes(purpose));
    subKeys.set(id, key);
  }
  return bytesToHex(hmac(sha256, key, utf8ToBytes(text)));
}

async function boxKey(ctx: Ctx): Promise<CryptoKey> {
  const raw = await boxKeyText(ctx);
  if (!raw) throw new Error('No secret box key: the twofactor domain init did not run');
  return importKey(raw);
}

export async function seal(ctx: Ctx, plain: string): Promise<string> {
  const nonce = await ctx.secrets.bytes(12, 'box-nonce');
  const sealed = await globalThis.crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: nonce as Uint8Array<ArrayBuffer> },
    await boxKey(ctx),
    new TextEncoder().encode(plain),
  );
  return `v1.${base64.encode(nonce)}.${base64.encode(new Uint8Array(sealed))}`;
}

export async function open(ctx: Ctx, box: string): Promise<string> {
  const [version, nonce, sealed] = box.split('.');
  if (version !== 'v1' || !nonce || !sealed) throw new Error('Unknown sealed secret format');
  const plain = await globalThis.crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: base64.decode(nonce) as Uint8Array<ArrayBuffer> },
    await boxKey(ctx),
    base64.decode(sealed) as Uint8Array<ArrayBuffer>,
  );
  return new TextDecoder().decode(plain);
}
