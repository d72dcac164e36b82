import { describe, expect, it } from 'vitest';
import { readTables } from '../../../src/sync/live';
import { profileFromReplica, type ReplicaBalance, type ReplicaProfile } from '../../../src/sync/member-views';
import { forgetMember, lastPulledAt, replicaRecords } from '../../../src/sync/replica';
import { user } from '../../engine/harness';
import { pair, syncHarness } from '../../engine/sync-kit';
import { device } from './device-kit';

describe('the device read path (docs/RULES.md Y9, Y10)', () => {
  it('Y9 the profile computed from the replica equals /api/user/getuser, to the micro-unit', async () => {
    const h = await syncHarness();
    const { alice, bob } = await pair(h, '1000.123456');
    expect(
      (await h.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '100.5' }, alice)).code,
    ).toBe(0);
    expect((await h.call('/api/transfer/submit', { account: 'bob', amount: '7.25' }, alice)).code).toBe(0);
    const d = device(h, alice);
    await d.sync.pull();
    const { tables } = await readTables(d.db, alice.id, ['members', 'balances']);
    const computed = profileFromReplica(
      tables.members?.[0] as ReplicaProfile,
      tables.balances as ReplicaBalance[],
      h.clock.now(),
    );
    expect(computed).toEqual(await user(h, alice));
    expect(computed.available).toBe('892.373456');
    expect(computed.totalAssets).toBe('992.873456');
    // The receiver's device, too.
    d.signIn(bob);
    await d.sync.pull();
    const theirs = await readTables(d.db, bob.id, ['members', 'balances']);
    expect(
      profileFromReplica(
        theirs.tables.members?.[0] as ReplicaProfile,
        theirs.tables.balances as ReplicaBalance[],
        h.clock.now(),
      ),
    ).toEqual(await user(h, bob));
  });

  it('Y9 a complete pull records its time per member; a failed one keeps the last time', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice);
    expect(await lastPulledAt(d.db, alice.id)).toBeNull();
    const sync = d.sync;
    await sync.pull();
    const first = await lastPulledAt(d.db, alice.id);
    expect(first).not.toBeNull();
    expect(sync.status.get().lastSync).toBe(first);
    d.link('down');
    await expect(sync.pull()).rejects.toBeTruthy();
    expect(await lastPulledAt(d.db, alice.id)).toBe(first);
    expect(sync.status.get().lastSync).toBe(first);
  });

  it('Y9 another member on the same device reads nothing of the first member', async () => {
    const h = await syncHarness();
    const { alice, bob } = await pair(h);
    await h.call('/api/transfer/submit', { account: 'bob', amount: '3' }, alice);
    const d = device(h, alice);
    await d.sync.pull();
    d.signIn(bob);
    const before = await readTables(d.db, bob.id, ['members', 'balances', 'transfers']);
    expect(before).toEqual({ tables: { members: [], balances: [], transfers: [] }, pulledAt: null });
    await d.sync.pull();
    const bobs = await readTables(d.db, bob.id, ['members', 'transfers']);
    expect((bobs.tables.members?.[0] as { id: string }).id).toBe(bob.id);
    expect(bobs.tables.transfers).toEqual([expect.objectContaining({ direction: 'in', amount: '3' })]);
  });

  it('Y10 logging out forgets the member on this device: replica, cursor, pull time, outbox, answers', async () => {
    const h = await syncHarness();
    const { alice, bob } = await pair(h);
    const d = device(h, alice);
    await d.sync.pull();
    const answered = await d.sync.enqueue('/api/transfer/submit', { account: 'bob', amount: '1' });
    await d.sync.flush();
    expect(await d.sync.result(answered)).toBeTruthy();
    d.online.set(false);
    await d.sync.enqueue('/api/transfer/submit', { account: 'bob', amount: '2' });
    d.signIn(bob);
    await d.sync.pull();
    await forgetMember(d.db, alice.id);
    expect(await d.db.replica.where('memberId').equals(alice.id).count()).toBe(0);
    expect(await d.db.outbox.where('memberId').equals(alice.id).count()).toBe(0);
    expect(await d.db.results.where('memberId').equals(alice.id).count()).toBe(0);
    expect(await d.db.meta.get(`cursor:${alice.id}`)).toBeUndefined();
    expect(await lastPulledAt(d.db, alice.id)).toBeNull();
    // The other member's data stays.
    expect((await replicaRecords(d.db, bob.id, 'members')).length).toBe(1);
    expect(await lastPulledAt(d.db, bob.id)).not.toBeNull();
  });
});
