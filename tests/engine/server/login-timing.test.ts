/**
 * A5 login timing over HTTP on the server's path (issue 11 item 7: "login timing for known and unknown
 * accounts within 10% of each other"): the production PBKDF2 cost (600,000 iterations), hashed on the
 * server's worker pool, SQL storage (PGlite, or PostgreSQL with DATABASE_URL). A wrong password for a real
 * account and a login for an unknown username are timed in pairs sent together (one per pool thread; which
 * one is sent first alternates), so the load of a shared machine, which changes from one second to the next
 * (one run's samples went from 0.4 to 1.2 s), falls on both samples of a pair alike. The medians are compared
 * pair by pair: the median of unknown/known over the pairs is within 10% of 1. On a 2-core machine at a load
 * average of 10-20 that paired median stayed within 0.92-1.00 over 6 runs, while the ratio of the two sets'
 * own medians, which also drifts with the load, ranged 0.84-1.07 over 9 runs (logged, not asserted). Without
 * the dummy hash for unknown names an unknown login answers in a few milliseconds: a ratio near 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../engine/config';
import { SqlStore } from '../../../server/sql-store';
import { signUp, startTestServer, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

/** Pairs of logins timed: about 8 s at one hash of ~0.25 s per login, 18 s on a loaded machine (~0.5 s). */
const PAIRS = 30;

const schema = freshSchema();
let server: TestServer;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

beforeAll(async () => {
  const storage = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({
    storage,
    config: {
      pbkdf2Iterations: defaultConfig.pbkdf2Iterations,
      loginPerIpPerMinute: 1_000_000,
      loginGlobalPerMinute: 1_000_000,
    },
    // The account's own failure limit would answer 429 (no hash) after 10 wrong passwords.
    engineConfig: { loginFailLimit: 1_000_000 },
  });
  await signUp(server, 'alice');
}, 60_000);

afterAll(async () => {
  await server?.close();
  await dropSchema(schema);
});

describe(`login timing on the server's path (${sqlKind})`, () => {
  it('A5 a wrong password and an unknown username take the same time: medians within 10%, pair by pair', async () => {
    expect(defaultConfig.pbkdf2Iterations).toBe(600_000);
    let unknownNames = 0;
    const time = async (username: string) => {
      const start = performance.now();
      const r = await server.call('/api/index/login', { username, password: 'wrong-password' });
      const elapsed = performance.now() - start;
      expect(r.code).toBe(2016);
      return elapsed;
    };
    const known = () => time('alice');
    const unknown = () => time(`nobody${unknownNames++}`);
    // Warm-up: the dummy hash is derived once per process, and the pool's threads start.
    await unknown();
    await known();
    await unknown();
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const [k, u] =
        i % 2 === 0
          ? await Promise.all([known(), unknown()])
          : await Promise.all([unknown(), known()]).then(([u2, k2]) => [k2, u2]);
      knownTimes.push(k ?? 0);
      unknownTimes.push(u ?? 0);
    }
    const paired = median(knownTimes.map((k, i) => (unknownTimes[i] ?? 0) / k));
    const ofMedians = median(unknownTimes) / median(knownTimes);
    console.info(
      `login timing (${sqlKind}): known median ${median(knownTimes).toFixed(1)} ms, unknown median ` +
        `${median(unknownTimes).toFixed(1)} ms; unknown/known: paired median ${paired.toFixed(3)}, ` +
        `of the medians ${ofMedians.toFixed(3)}`,
    );
    expect(paired).toBeGreaterThan(1 / 1.1);
    expect(paired).toBeLessThan(1.1);
    // Both paths wrote their failure: alice's counter, and one counter per unknown name under a keyed hash
    // that does not contain the name.
    const rows = (
      ((await server.engine.diagnostics.snapshot())['rateLimits'] ?? []) as Array<{
        id: string;
        hits: number[];
      }>
    ).filter((r) => r.id.startsWith('login:'));
    const knownRows = rows.filter((r) => /^login:\d+$/.test(r.id));
    const unknownRows = rows.filter((r) => /^login:\?[0-9a-f]{64}$/.test(r.id));
    expect(knownRows).toHaveLength(1);
    expect(knownRows[0]?.hits).toHaveLength(PAIRS + 1);
    expect(unknownRows).toHaveLength(unknownNames);
    expect(unknownRows.every((r) => r.hits.length === 1)).toBe(true);
    expect(rows).toHaveLength(1 + unknownNames);
  }, 90_000);
});
