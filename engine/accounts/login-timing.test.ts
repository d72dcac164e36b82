/**
 * A5 login answers reveal nothing about which usernames exist: an unknown username costs one password hash
 * like a wrong password does (median times within a generous factor, measured interleaved), and failed
 * logins for unknown usernames write nothing (no rate-limit rows from a scan of random names).
 */
import { describe, expect, it } from 'vitest';
import { harness, signUp } from '../../tests/engine/harness';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

describe('login timing and storage', () => {
  it('A5 an unknown username takes as long as a wrong password and leaves no row behind', async () => {
    // 200,000 iterations: one hash is tens of milliseconds, far above the rest of a login's work.
    const h = await harness({ config: { pbkdf2Iterations: 200_000 } });
    await signUp(h, 'alice');
    const rows = async () => ((await h.engine.diagnostics.snapshot())['rateLimits'] ?? []).length;
    const before = await rows();
    const time = async (username: string) => {
      const start = performance.now();
      const r = await h.call('/api/index/login', { username, password: 'wrong-password' });
      expect(r.code).toBe(2016);
      return performance.now() - start;
    };
    await time('nobody-warmup');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await time('alice'));
      unknown.push(await time(`nobody${i}`));
    }
    // Without the dummy hash the unknown name answered ~30x faster; with it both cost one hash.
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
    // Alice's failures are counted (one row); the eight unknown names wrote nothing.
    expect(await rows()).toBe(before + 1);
    await h.engine.close();
  }, 60_000);
});
