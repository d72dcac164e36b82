// The hash pool's worker (server/hash-pool.ts): PBKDF2-HMAC-SHA256, 32 bytes, exactly what WebCrypto derives
// (engine/security/hashing.ts). Plain JavaScript, so the same file runs under tsx, vitest and the compiled
// server (npm run build:server copies it next to dist-server/main.js).
import { pbkdf2Sync } from 'node:crypto';

/** @param {{ secret: Uint8Array, salt: Uint8Array, iterations: number }} task */
export default function pbkdf2({ secret, salt, iterations }) {
  const out = pbkdf2Sync(secret, salt, iterations, 32, 'sha256');
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
