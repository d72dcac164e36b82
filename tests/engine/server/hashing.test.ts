/**
 * Password hashing off the request path (issue 11 item 7): the server hashes on a pool of worker threads,
 * outside every unit of work, so wrong logins running at once do not hold up an anonymous read; the pool
 * derives exactly what WebCrypto derives; closing the server ends its threads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webCryptoHasher } from '../../../engine/security/hashing';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { HASH_NICE_OFFSET, hashPool } from '../../../server/hash-pool';
import { SqlStore } from '../../../server/sql-store';
import { startTestServer, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
let server: TestServer;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

beforeAll(async () => {
  const storage = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({
    storage,
    // Twice the production cost: one hash is 0.2-0.5 s of one core, far above a read.
    config: { pbkdf2Iterations: 1_200_000, loginPerIpPerMinute: 1_000_000, loginGlobalPerMinute: 1_000_000 },
  });
  // Starting PGlite and the engine at this cost took over vitest's default 10 s under a loaded CI machine.
}, 60_000);

afterAll(async () => {
  await server?.close();
  await dropSchema(schema);
});

describe(`password hashing off the request path (${sqlKind})`, () => {
  it('the worker pool derives what WebCrypto derives', async () => {
    const salt = Uint8Array.from({ length: 16 }, (_, i) => i * 7);
    for (const secret of ['secret1', 'pässwörd ✓', '', 'a'.repeat(300)]) {
      const pooled = await server.hashes.pbkdf2(secret, salt, 1_000);
      expect(pooled).toEqual(await webCryptoHasher.pbkdf2(secret, salt, 1_000));
    }
  });

  it('A5 a market list answers far within one hash while 8 wrong logins run', async () => {
    // A name no account has, new each time: an unknown name's failures are counted as a member's are, and
    // its eleventh would answer 429 without hashing.
    let attempt = 0;
    const wrongLogin = () =>
      server
        .call('/api/index/login', { username: `nobody${++attempt}`, password: 'wrong-password' })
        .then((r) => {
          expect(r.code).toBe(2016);
        });
    const read = () =>
      server.call('/api/market/list').then((r) => {
        expect(r.code).toBe(0);
      });
    await read();
    await wrongLogin(); // the dummy hash, computed once
    // One wrong login alone: one hash plus a little work.
    const hash = median([await timed(wrongLogin), await timed(wrongLogin), await timed(wrongLogin)]);

    // 8 connections sending wrong passwords back to back, and a market read every 20 ms meanwhile.
    let running = true;
    let logins = 0;
    const senders = Array.from({ length: 8 }, async () => {
      while (running) {
        await wrongLogin();
        logins++;
      }
    });
    const reads: number[] = [];
    // Measure once the pool is saturated: the first logins have reached their hash.
    await new Promise((resolve) => setTimeout(resolve, hash / 2));
    for (let i = 0; i < 9; i++) {
      reads.push(await timed(read));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    running = false;
    await Promise.all(senders);
    expect(logins).toBeGreaterThanOrEqual(8);
    // Before the pool, each wrong login held the unit of work (PGlite: the one connection) for its hash, so a
    // read waited for several hashes (over a second); now it waits for none.
    expect(median(reads)).toBeLessThan(hash / 3);
  }, 120_000);

  it.runIf(existsSync('/proc/thread-self'))(
    "the hashing threads run below the event loop's priority (Linux: nice 10 per thread)",
    async () => {
      const nices = () =>
        readdirSync('/proc/self/task').map((tid) => {
          // Field 19 of a thread's stat is its nice value; the name (field 2) may hold spaces, so count from ')'.
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
        });
      // This thread (the event loop) keeps the process's priority; the pool's threads run below it.
      const own = getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()));
      const lowered = Math.min(19, own + HASH_NICE_OFFSET);
      const before = nices().filter((n) => n === lowered).length;
      const pool = hashPool(2);
      // Two hashes at once: the second starts the second thread.
      await Promise.all([1, 2].map(() => pool.pbkdf2('x', new Uint8Array(16), 200_000)));
      expect(lowered).toBeGreaterThan(own);
      // (The second thread may still be starting: it lowers its priority as it starts.)
      await expect.poll(() => nices().filter((n) => n === lowered).length).toBe(before + 2);
      await pool.close();
    },
  );

  it('threads beyond the first end after a quiet spell; the first stays for the next login', async () => {
    const pool = hashPool(2, 300);
    expect(pool.alive()).toBe(1);
    await Promise.all([1, 2].map(() => pool.pbkdf2('x', new Uint8Array(16), 200_000)));
    expect(pool.alive()).toBe(2);
    await expect.poll(() => pool.alive(), { timeout: 5_000 }).toBe(1);
    expect(await pool.pbkdf2('x', new Uint8Array(16), 1_000)).toHaveLength(32);
    await pool.close();
  });

  it('closing the pool ends its threads', async () => {
    const pool = hashPool(2);
    await Promise.all([1, 2].map(() => pool.pbkdf2('x', new Uint8Array(16), 200_000)));
    expect(pool.alive()).toBe(2);
    // Each thread has a V8 heap of its own (in the process's RSS, not in its heapTotal).
    // The second thread may still be starting: its heap is reported once it runs.
    await expect.poll(async () => (await pool.heaps()).threads).toBe(2);
    const heaps = await pool.heaps();
    expect(heaps.heapUsed).toBeGreaterThan(0);
    expect(heaps.heapTotal).toBeGreaterThanOrEqual(heaps.heapUsed);
    await pool.close();
    expect(pool.alive()).toBe(0);
    expect((await pool.heaps()).threads).toBe(0);
  });
});
