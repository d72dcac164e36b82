/**
 * Password, security-key and secret-answer hashing: PBKDF2-SHA256 (600,000 iterations by default, a 16-byte
 * salt per secret, compared in constant time), stored as `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`.
 * The derivation is an injected `Hasher` (WebCrypto by default; the server's worker-thread pool). Handlers
 * hash through `ctx.hashing`, which keeps hashes out of every unit of work (`HashNeeded`: the unit rolls
 * back, the hash runs outside, the unit runs again): docs/SERVER.md "Hashing pool".
 */
import { base64 } from '@scure/base';

const PREFIX = 'pbkdf2-sha256';

/** PBKDF2-HMAC-SHA256 of the secret's UTF-8 bytes, 32 bytes out. */
export interface Hasher {
  pbkdf2(secret: string, salt: Uint8Array, iterations: number): Promise<Uint8Array>;
}

/** The default hasher: WebCrypto (browsers and Node; Node runs it on libuv's thread pool). */
export const webCryptoHasher: Hasher = {
  pbkdf2: (secret, salt, iterations) => derive(secret, salt, iterations),
};

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
const dummies = new WeakMap<Hasher, Map<number, Promise<string>>>();
export function dummyHash(iterations: number, hasher: Hasher = webCryptoHasher): Promise<string> {
  let byCost = dummies.get(hasher);
  if (!byCost) dummies.set(hasher, (byCost = new Map()));
  let hash = byCost.get(iterations);
  if (!hash) {
    hash = hashSecret('strata-no-such-account', new Uint8Array(16), iterations, hasher);
    // A failed derivation (a closed pool) must not stay cached.
    hash.catch(() => byCost.delete(iterations));
    byCost.set(iterations, hash);
  }
  return hash;
}

export async function hashSecret(
  secret: string,
  salt: Uint8Array,
  iterations: number,
  hasher: Hasher = webCryptoHasher,
): Promise<string> {
  const hash = await hasher.pbkdf2(secret, salt, iterations);
  return `${PREFIX}$${iterations}$${base64.encode(salt)}$${base64.encode(hash)}`;
}

/** Compares every byte whatever the first difference, so timing says nothing about the secret. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export async function verifySecret(
  secret: string,
  stored: string,
  hasher: Hasher = webCryptoHasher,
): Promise<boolean> {
  const [prefix, iter, salt, hash] = stored.split('$');
  if (prefix !== PREFIX || !iter || !salt || !hash) return false;
  const iterations = Number(iter);
  if (!Number.isSafeInteger(iterations) || iterations < 1) return false;
  const actual = await hasher.pbkdf2(secret, base64.decode(salt), iterations);
  return constantTimeEqual(actual, base64.decode(hash));
}

/** Secret answers are compared case- and space-insensitively, as members type them differently. */
export function normaliseAnswer(answer: string): string {
  return answer.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Thrown inside a unit of work that needs a hash its call has not computed yet: the runtime rolls the unit
 * back, runs `compute` outside any transaction, and runs the unit again. Never reaches a caller.
 */
export class HashNeeded extends Error {
  constructor(readonly compute: () => Promise<void>) {
    super('A hash is needed before this unit of work can go on');
    this.name = 'HashNeeded';
  }
}

/** Re-runs after which a call hashes inline (a stored hash that keeps changing under it). */
const MAX_DEFERRED_ROUNDS = 8;

/**
 * One call's hashing (ctx.hashing, also that of the units nested in the call's): a memo of the hashes the
 * call computed, shared by its attempts. With `deferred` a missing hash throws HashNeeded (see the top of
 * this file); without it (and after MAX_DEFERRED_ROUNDS) hashes run inline.
 */
export class Hashing {
  private ordinal = 0;
  private rounds = 0;
  private readonly memo = new Map<string, unknown>();

  constructor(
    readonly hasher: Hasher,
    private readonly iterations: number,
    private deferred: boolean,
  ) {}

  /**
   * Called at the start of each attempt of the unit: new secrets are numbered per attempt, across the
   * units nested in it (a push's mutations run in the same order on every attempt).
   */
  attempt(): void {
    this.ordinal = 0;
  }

  /** Computes what a HashNeeded asked for, outside the unit; after a few rounds the call hashes inline. */
  async compute(needed: HashNeeded): Promise<void> {
    this.rounds++;
    if (this.rounds >= MAX_DEFERRED_ROUNDS) this.deferred = false;
    await needed.compute();
  }

  /**
   * The stored form of a new secret. `salt` is drawn by the caller on every attempt (seeded secrets keep
   * their counter); the memo answers the first attempt's hash, salt included, for the n-th new secret.
   */
  hash(secret: string, salt: Uint8Array): Promise<string> {
    const key = JSON.stringify(['hash', this.ordinal++, secret]);
    return this.memoised(key, () => hashSecret(secret, salt, this.iterations, this.hasher));
  }

  /** Whether `secret` matches `stored`; `undefined` (no such account) verifies against the dummy hash. */
  verify(secret: string, stored: string | undefined): Promise<boolean> {
    const key = JSON.stringify(['verify', secret, stored ?? null]);
    return this.memoised(key, async () =>
      verifySecret(secret, stored ?? (await dummyHash(this.iterations, this.hasher)), this.hasher),
    );
  }

  private async memoised<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    if (!this.deferred) {
      const value = await work();
      this.memo.set(key, value);
      return value;
    }
    throw new HashNeeded(async () => {
      this.memo.set(key, await work());
    });
  }
}
