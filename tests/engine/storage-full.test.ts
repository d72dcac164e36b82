/**
 * A full disk (IndexedDB's QuotaExceededError at commit) answers code 507 and loses nothing already saved:
 * the unit of work is written whole or not at all (ARCHITECTURE.md principle 4).
 */
import { describe, expect, it } from 'vitest';
import { assembleEngine } from '../../engine/engine';
import { manualClock } from '../../engine/index';
import { domains } from '../../engine/routes';
import { MemoryStore } from '../../engine/store';
import type { RowRef, StoredRow } from '../../engine/store';
import { T0, harnessCalls, registration } from './harness';

/** A store whose disk fills up on demand, failing commits the way Dexie reports it. */
class FillableStore extends MemoryStore {
  full = false;
  override async commit(puts: StoredRow[], deletes: RowRef[]): Promise<void> {
    if (this.full) {
      const quota = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
      throw Object.assign(new Error('Transaction aborted'), { name: 'AbortError', inner: quota });
    }
    return super.commit(puts, deletes);
  }
}

describe('G16 storage full', () => {
  it('answers 507 and keeps everything saved before', async () => {
    const store = new FillableStore();
    const engine = await assembleEngine(
      {
        clock: manualClock(T0),
        seed: 3,
        storage: store,
        config: { pbkdf2Iterations: 1_000, secrets: 'seeded' },
      },
      domains,
    );
    const { call, get } = harnessCalls(engine);
    const verify = (await get('/index/index/verify')).data;
    const answer = await call('/api/index/register', {
      ...registration('alice'),
      verify: verify.code ?? '',
      verifyKey: verify.key,
    });
    expect(answer.code).toBe(0);
    const before = await engine.diagnostics.stateHash();

    store.full = true;
    const second = await engine.handle({ method: 'GET', path: '/index/index/verify' });
    expect(second.body.code).toBe(507);
    expect(second.body.msg).toMatch(/storage is full/i);
    expect(await engine.diagnostics.stateHash()).toBe(before);

    store.full = false;
    expect((await call('/api/index/login', { username: 'alice', password: 'secret1' })).code).toBe(0);
    expect(await engine.diagnostics.checkInvariants()).toEqual([]);
  });
});
