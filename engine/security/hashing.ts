/**
 * Password, security-key and secret-answer hashing: PBKDF2-SHA256 through WebCrypto (600,000 iterations by
 * default, OWASP 2023), a 16-byte salt per secret, compared in constant time. The stored form is
 * self-describing so the iteration count can be raised later without invalidating old hashes:
 * `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`.
 *
 * This runs outside any storage transaction: handlers hash before their unit of work commits, and the
 * unit of work is a memory buffer, so no IndexedDB transaction is open across the await.
 */
import { base64 } from '@scure/base';

const PREFIX = 'pbkdf2-sha256';

async function derive(secret: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey('raw', new TextEncoder().encode(secret), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

/**
 * A stored-hash stand-in for accounts that do not exist, at the same cost as a real one: a login for an
 * unknown username verifies against it, so its timing is that of a wrong password (usernames cannot be
 * enumerated by timing). Its salt is fixed and public; no secret verifies against it but by chance.
 */
const dummies = new Map<number, Promise<string>>();
export function dummyHash(iterations: number): Promise<string> {
  let hash = dummies.get(iterations);
  if (!hash) {
    hash = hashSecret('strata-no-such-account', new Uint8Array(16), iterations);
    dummies.set(iterations, hash);
  }
  return hash;
}

export async function hashSecret(secret: string, salt: Uint8Array, iterations: number): Promise<string> {
  const hash = await derive(secret, salt, iterations);
  return `${PREFIX}$${iterations}$${base64.encode(salt)}$${base64.encode(hash)}`;
}

/** Compares every byte whatever the first difference, so timing says nothing about the secret. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [prefix, iter, salt, hash] = stored.split('$');
  if (prefix !== PREFIX || !iter || !salt || !hash) return false;
  const iterations = Number(iter);
  if (!Number.isSafeInteger(iterations) || iterations < 1) return false;
  const actual = await derive(secret, base64.decode(salt), iterations);
  return constantTimeEqual(actual, base64.decode(hash));
}

/** Secret answers are compared case- and space-insensitively, as members type them differently. */
export function normaliseAnswer(answer: string): string {
  return answer.trim().replace(/\s+/g, ' ').toLowerCase();
}
