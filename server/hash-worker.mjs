// The hash pool's worker (server/hash-pool.ts): PBKDF2-HMAC-SHA256, 32 bytes, exactly what WebCrypto derives
// (engine/security/hashing.ts). Plain JavaScript, so the same file runs under tsx, vitest and the compiled
// server (npm run build:server copies it next to dist-server/main.js).
import { pbkdf2Sync } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';

// On Linux each thread has its own id and priority: this thread runs `niceOffset` (server/hash-pool.ts)
// below the thread that created it, so it yields the CPU to the event loops (and PostgreSQL) whenever they
// have work and takes what is idle otherwise. A burst of wrong logins then slows other logins, not every
// request. Elsewhere, or where it is not permitted, the thread keeps the process's priority.
try {
  const offset = Number(workerData?.niceOffset ?? 0);
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (offset > 0 && Number.isInteger(tid) && tid > 0)
    setPriority(tid, Math.min(19, getPriority(tid) + offset));
} catch {
  // No /proc/thread-self (not Linux): the same priority as the process.
}

/** @param {{ secret: Uint8Array, salt: Uint8Array, iterations: number }} task */
export default function pbkdf2({ secret, salt, iterations }) {
  const out = pbkdf2Sync(secret, salt, iterations, 32, 'sha256');
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
