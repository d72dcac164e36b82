/**
 * Secret material (session tokens, salts, captcha codes). In 'crypto' mode it comes from
 * crypto.getRandomValues. In 'seeded' mode it is HMAC-SHA256(seed key, purpose + persisted counter): the same
 * seed replays to the same state hash, and a reload never repeats a value because the counter is stored.
 * Seeded mode is for tests and the on-device demo; a server must run with `secrets: 'crypto'`.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Ids } from '../ids';

export interface Secrets {
  bytes(n: number, purpose: string): Promise<Uint8Array>;
  /** A 256-bit session token as 64 hex characters. */
  token(): Promise<string>;
  /** `n` decimal digits (captcha codes). */
  digits(n: number, purpose: string): Promise<string>;
}

/** Bytes from the platform's CSPRNG (Web Crypto in browsers and Node). */
export function cryptoEntropy(bytes: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(bytes));
}

export function createSecrets(mode: 'crypto' | 'seeded', seed: number, ids: Ids): Secrets {
  const seedKey = sha256(utf8ToBytes(`strata-secrets:${seed}`));
  const bytes = async (n: number, purpose: string): Promise<Uint8Array> => {
    if (mode === 'crypto') return globalThis.crypto.getRandomValues(new Uint8Array(n));
    const counter = await ids.next('secret');
    const out = new Uint8Array(n);
    for (let offset = 0, block = 0; offset < n; offset += 32, block++) {
      const chunk = hmac(sha256, seedKey, utf8ToBytes(`${purpose}:${counter}:${block}`));
      out.set(chunk.subarray(0, Math.min(32, n - offset)), offset);
    }
    return out;
  };
  return {
    bytes,
    token: async () => bytesToHex(await bytes(32, 'token')),
    digits: async (n, purpose) => {
      const raw = await bytes(n * 2, purpose);
      let s = '';
      // Two bytes per digit keep the modulo bias below 0.02%.
      for (let i = 0; i < n; i++) s += String((((raw[2 * i] ?? 0) << 8) | (raw[2 * i + 1] ?? 0)) % 10);
      return s;
    },
  };
}
