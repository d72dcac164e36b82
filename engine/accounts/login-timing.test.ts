/**
 * A5 login answers reveal nothing about which usernames exist: an unknown username costs one password hash
 * like a wrong password does (median times within a generous factor, measured interleaved), and both write
 * their failure (the same work): an unknown name's counter is keyed by a keyed hash of the name, and the
 * hourly sweep removes it once its window has passed (a scan of random names leaves no row for good).
 */
import { describe, expect, it } from 'vitest';
import { harness, signUp } from '../../tests/engine/harness';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

describe('login timing and storage', () => {
  it('A5 an unknown username takes as long as a wrong password; its counter goes at the sweep', async () => {
    // 200,000 iterations: one hash is tens of milliseconds, far above the rest of a login's work.
    const h = await harness({ config: { pbkdf2Iterations: 200_000 } });
    await signUp(h, 'alice');
    const rows = async () =>
      ((await h.engine.diagnostics.snapshot())['rateLimits'] ?? []).filter((r) =>
        String((r as { id: unknown }).id).startsWith('login:'),
      ).length;
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
    // Alice's failures are counted (one row), and each of the eight unknown names' under its hash.
    expect(await rows()).toBe(9);
    // After the window and the hourly sweep, the rows with no recent hit are gone.
    h.clock.advance(2 * 60 * 60_000);
    await h.engine.settle();
    expect(await rows()).toBe(0);
    await h.engine.close();
  }, 60_000);
});
