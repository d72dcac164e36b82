/**
 * The server's Hasher (engine/security/hashing.ts): PBKDF2 in a pool of worker threads (piscina), up to one
 * per core (one kept when idle), so password and key hashes run in parallel and never on the event loop;
 * hashes beyond the pool's size wait in its queue instead of crowding the CPU that answers requests, and the
 * threads run at a lower scheduling priority than the event loop (HASH_NICE_OFFSET). The dummy hash of
 * unknown usernames goes through the same pool (the engine derives it with the injected hasher).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Hasher } from '../engine/index';

export interface HashPool extends Hasher {
  readonly threads: number;
  /** Worker threads alive now (0 once closed). */
  alive(): number;
  /** The V8 heaps of the threads alive now, summed (each thread has its own heap; diagnostics). */
  heaps(): Promise<{ threads: number; heapTotal: number; heapUsed: number }>;
  /** Waits for the hashes in progress, then ends every worker thread. */
  close(): Promise<void>;
}

interface Task {
  secret: Uint8Array;
  salt: Uint8Array;
  iterations: number;
}

/**
 * How far below the server's own threads the hashing threads run (Linux nice steps, per thread: see
 * server/hash-worker.mjs): hashing takes the CPU the event loop leaves idle.
 */
export const HASH_NICE_OFFSET = 10;

/**
 * How long a hashing thread beyond the first stays without a hash before it ends (ms). Each thread is a V8
 * isolate of ~16 MB RSS; the first always stays, so a login after a quiet spell never waits for a thread.
 */
export const HASH_IDLE_MS = 30_000;

export function hashPool(threads = availableParallelism(), idleMs = HASH_IDLE_MS): HashPool {
  const size = Math.max(1, Math.floor(threads));
  const pool = new Piscina<Task, Uint8Array>({
    filename: new URL('./hash-worker.mjs', import.meta.url).href,
    // One thread always (a login never pays a thread's start-up); more start while hashes queue up.
    minThreads: 1,
    maxThreads: size,
    idleTimeout: idleMs,
    workerData: { niceOffset: HASH_NICE_OFFSET },
  });
  const encoder = new TextEncoder();
  let closed: Promise<void> | null = null;
  return {
    threads: size,
    alive: () => pool.threads.length,
    heaps: async () => {
      // A thread still starting (or ending) has no heap to report yet: it is left out.
      const read = await Promise.all(pool.threads.map((t) => t.getHeapStatistics().catch(() => null)));
      const stats = read.filter((s) => s !== null);
      return {
        threads: stats.length,
        heapTotal: stats.reduce((sum, s) => sum + s.total_heap_size, 0),
        heapUsed: stats.reduce((sum, s) => sum + s.used_heap_size, 0),
      };
    },
    pbkdf2: async (secret, salt, iterations) =>
      new Uint8Array(
        await pool.run({ secret: encoder.encode(secret), salt: Uint8Array.from(salt), iterations }),
      ),
    close: () => (closed ??= pool.close()),
  };
}
