import { describe, expect, it } from 'vitest';
import { captcha, harness, login, signUp } from '../../tests/engine/harness';
import { SWEEP_EVERY_MS } from './sweep';

describe('the hourly sweep (docs/RULES.md A12)', () => {
  it('A12 expired captchas, ended sessions and stale rate rows are deleted; live ones stay', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const old = await login(h, 'alice');
    expect((await h.call('/api/index/logout', undefined, old)).code).toBe(0);
    await captcha(h); // fetched, never used
    expect((await h.call('/api/index/login', { username: 'alice', password: 'wrong1' })).code).toBe(2016);
    const count = async (table: string) => ((await h.engine.diagnostics.snapshot())[table] ?? []).length;
    expect(await count('captchas')).toBeGreaterThan(0);
    expect(await count('rateLimits')).toBeGreaterThan(0);
    const sessionsBefore = await count('sessions');

    h.clock.advance(SWEEP_EVERY_MS);
    await h.engine.settle();
    expect(await count('captchas')).toBe(0);
    expect(await count('rateLimits')).toBe(0);
    // The logged-out session is gone; alice's live session still works.
    expect(await count('sessions')).toBe(sessionsBefore - 1);
    expect((await h.call('/api/user/getuser', undefined, alice)).code).toBe(0);
    expect((await h.call('/api/user/getuser', undefined, old)).code).toBe(401);
    await h.engine.close();
  });
});
