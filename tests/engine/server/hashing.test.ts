/**
 * Password hashing off the request path (issue 11 item 7): the server hashes on a pool of worker threads,
 * outside every unit of work, so wrong logins running at once do not hold up an anonymous read; the pool
 * derives exactly what WebCrypto derives; closing the server ends its threads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webCryptoHasher } from '../../../engine/security/hashing';
import { hashPool } from '../../../server/hash-pool';
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
    const wrongLogin = () =>
      server.call('/api/index/login', { username: 'nobody', password: 'wrong-password' }).then((r) => {
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

  it('closing the pool ends its threads', async () => {
    const pool = hashPool(2);
    await pool.pbkdf2('x', new Uint8Array(16), 1_000);
    expect(pool.alive()).toBe(2);
    // Each thread has a V8 heap of its own (in the process's RSS, not in its heapTotal).
    const heaps = await pool.heaps();
    expect(heaps.threads).toBe(2);
    expect(heaps.heapUsed).toBeGreaterThan(0);
    expect(heaps.heapTotal).toBeGreaterThanOrEqual(heaps.heapUsed);
    await pool.close();
    expect(pool.alive()).toBe(0);
    expect((await pool.heaps()).threads).toBe(0);
  });
});
