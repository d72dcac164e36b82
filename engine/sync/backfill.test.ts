import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { assembleEngine } from '../engine';
import { manualClock, type Engine } from '../index';
import { counters } from '../ids';
import { domains, type Domain } from '../routes';
import { harnessCalls, login, register, T0, type Harness } from '../../tests/engine/harness';

/** Plants the marker an engine from before positions and invitees were synced left behind. */
const legacyBackfill: Domain = {
  name: 'legacy-backfill',
  handlers: {},
  init: async (ctx) => {
    if (!(await ctx.tx.get(counters, 'sync.backfilled')))
      ctx.tx.put(counters, { id: 'sync.backfilled', value: 1 });
  },
};

async function open(
  storage: string,
  withSync: boolean,
  legacy = false,
): Promise<Harness & { engine: Engine }> {
  const clock = manualClock(T0);
  const engine = await assembleEngine(
    { clock, seed: 3, storage, config: { pbkdf2Iterations: 1_000, secrets: 'seeded' } },
    withSync ? (legacy ? [legacyBackfill, ...domains] : domains) : domains.filter((d) => d.name !== 'sync'),
  );
  return { engine, clock, ...harnessCalls(engine) };
}

describe('sync on stored data (docs/RULES.md Y1, Y6)', () => {
  it('Y6 records written before sync existed are logged once, so a pull without a cursor answers them', async () => {
    const before = await open('sync-backfill', false);
    expect((await register(before, 'dora')).code).toBe(0);
    await before.engine.close();

    const after = await open('sync-backfill', true);
    const dora = await login(after, 'dora');
    const page = (await after.call('/api/sync/pull', {}, dora)).data;
    expect(page.changes.map((c) => c.table)).toContain('members');
    await after.engine.close();

    const again = await open('sync-backfill', true);
    const twice = (await again.call('/api/sync/pull', {}, dora)).data;
    expect(twice.changes.filter((c) => c.table === 'members')).toHaveLength(1);
    await again.engine.close();
  });

  it('Y6 a table synced after the first backfill is backfilled on its own (old databases keep working)', async () => {
    const before = await open('sync-backfill-later', false);
    expect((await register(before, 'fred')).code).toBe(0);
    const fred = await login(before, 'fred');
    const profile = (await before.call('/api/user/getuser', undefined, fred)).data;
    expect((await register(before, 'gina', { invite: profile.inviteCode })).code).toBe(0);
    await before.engine.close();

    // The database was backfilled by an engine that synced neither positions nor invitees.
    const after = await open('sync-backfill-later', true, true);
    const page = (await after.call('/api/sync/pull', {}, fred)).data;
    // The profile is logged again for its new field.
    expect(page.changes.find((c) => c.table === 'members')?.record).toMatchObject({
      inviteShareRate: '20.00',
    });
    expect(page.changes.filter((c) => c.table === 'invitees').map((c) => c.record)).toMatchObject([
      { username: 'g***' },
    ]);
    await after.engine.close();
  });

  it('Y1 a recorded answer survives a restart of an IndexedDB engine', async () => {
    const first = await open('sync-restart', true);
    expect((await register(first, 'erin')).code).toBe(0);
    const erin = await login(first, 'erin');
    const m = {
      id: 'bank-1',
      name: '/api/bank/add',
      args: { bankName: 'Bank', cardNumber: '6222020000000001', holder: 'Erin' },
    };
    const push = () => first.call('/api/sync/push', { clientId: 'd', mutations: [m] }, erin);
    const answer = (await push()).data;
    await first.engine.close();

    const second = await open('sync-restart', true);
    const replay = await second.call('/api/sync/push', { clientId: 'd', mutations: [m] }, erin);
    expect(replay.data).toEqual(answer);
    const cards = (await second.call('/api/bank/list', undefined, erin)).data.list;
    expect(cards).toHaveLength(1);
    await second.engine.close();
  });
});
