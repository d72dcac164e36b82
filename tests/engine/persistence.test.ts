/**
 * An engine on IndexedDB reopened on the same database carries on where it stopped: same state hash,
 * sessions still valid, scheduled jobs still due, counters not reused (G1, G3, J1, L7).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fund, harness, login, signUp, user } from './harness';

describe('persistence across a reload', () => {
  it('L7 a reopened engine has the same state, valid sessions, pending jobs and fresh ids', async () => {
    const storage = 'persistence-reload';
    const first = await harness({ storage });
    const alice = await signUp(first, 'alice');
    await fund(first, alice.id, '100');
    expect((await first.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, alice)).code).toBe(0);
    const hash = await first.engine.diagnostics.stateHash();
    await first.engine.close();

    const second = await harness({ storage, start: first.clock.now() });
    expect(await second.engine.diagnostics.stateHash()).toBe(hash);
    expect(await user(second, alice)).toMatchObject({ vip: 'vip1', available: '50' });
    const bob = await signUp(second, 'bob');
    expect(bob.id).toBe('100002');
    second.clock.advance(60 * 86_400_000);
    await second.engine.settle();
    expect(await user(second, await login(second, 'alice'))).toMatchObject({ vip: 'vip0' });
    expect(await second.engine.diagnostics.checkInvariants()).toEqual([]);
    await second.engine.close();
  });
});
