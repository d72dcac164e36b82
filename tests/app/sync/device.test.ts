import { describe, expect, it } from 'vitest';
import { replicaRecords } from '../../../src/sync/replica';
import { pair, transferCount } from '../../engine/sync-kit';
import { syncHarness } from '../../engine/sync-kit';
import { device, settled } from './device-kit';

const transferArgs = (amount = '1') => ({ account: 'bob', amount });

describe('device sync (docs/RULES.md Y8)', () => {
  it('Y8 mutations queued offline are replayed in order on reconnect, then the replica is pulled', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, false);
    const stop = d.sync.start();
    const ids = [];
    for (const amount of ['1', '2', '3'])
      ids.push(await d.sync.enqueue('/api/transfer/submit', transferArgs(amount)));
    expect(d.sync.status.get()).toMatchObject({ state: 'offline', pending: 3 });
    expect(d.delivered()).toBe(0);
    d.online.set(true);
    await settled(d);
    expect(d.sync.status.get()).toMatchObject({ state: 'idle', pending: 0, error: null });
    const answers = await Promise.all(ids.map((id) => d.sync.result(id)));
    expect(answers.map((a) => [a?.code, a?.data])).toMatchObject([
      [0, { amount: '1' }],
      [0, { amount: '2' }],
      [0, { amount: '3' }],
    ]);
    const transfers = await replicaRecords<{ amount: string; direction: string }>(
      d.db,
      alice.id,
      'transfers',
    );
    expect(transfers.map((t) => t.amount).sort()).toEqual(['1', '2', '3']);
    const balances = await replicaRecords<{ id: string; amount: string }>(d.db, alice.id, 'balances');
    expect(balances.find((b) => b.id === `user:${alice.id}:cash|USDT`)?.amount).toBe('994');
    stop();
  });

  it('Y8 an answer lost on the way back keeps the entry; the next flush gets the first answer, applied once', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, false);
    const id = await d.sync.enqueue('/api/transfer/submit', transferArgs('5'));
    d.link('lossy');
    const lost = await d.sync.flush();
    expect(lost).toMatchObject({ answered: 0, pending: 1 });
    expect(d.sync.status.get().state).toBe('offline');
    expect(await transferCount(h)).toBe(1);
    d.link('up');
    d.online.set(true);
    expect(await d.sync.flush()).toMatchObject({ answered: 1, pending: 0, error: null });
    expect((await d.sync.result(id))?.code).toBe(0);
    expect(await transferCount(h)).toBe(1);
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('Y8 a push the server could not commit stays queued and is applied by the next flush', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice);
    const id = await d.sync.enqueue('/api/transfer/submit', transferArgs('6'));
    const other = await d.sync.enqueue('/api/transfer/submit', transferArgs('7'));
    await settled(d);
    h.crashNextCommit();
    const third = await d.sync.enqueue('/api/transfer/submit', transferArgs('8'));
    await settled(d);
    expect(await d.sync.result(third)).toBeUndefined();
    expect(d.sync.status.get()).toMatchObject({ pending: 1, state: 'error', error: '500' });
    expect(await d.sync.flush()).toMatchObject({ answered: 1, pending: 0, error: null });
    expect((await Promise.all([id, other, third].map((m) => d.sync.result(m)))).map((r) => r?.code)).toEqual([
      0, 0, 0,
    ]);
    expect(await transferCount(h)).toBe(3);
  });

  it('Y8 failures are answers too: a refused transfer leaves the outbox with its code for the UI', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h, '2');
    const d = device(h, alice);
    const id = await d.sync.enqueue('/api/transfer/submit', transferArgs('50'));
    await d.sync.flush();
    expect(await d.sync.result(id)).toMatchObject({ code: 3005, name: '/api/transfer/submit' });
    expect(d.sync.status.get().pending).toBe(0);
  });

  it('Y8 a lost session keeps every entry; each account only ever pushes its own', async () => {
    const h = await syncHarness();
    const { alice, bob } = await pair(h);
    const d = device(h, alice, false);
    await d.sync.enqueue('/api/transfer/submit', transferArgs('4'));
    d.signIn({ ...alice, token: 'revoked', headers: { Authorization: 'revoked', UserId: alice.id } });
    d.online.set(true);
    const refused = await d.sync.flush();
    expect(refused).toMatchObject({ answered: 0, pending: 1 });
    expect(d.sync.status.get()).toMatchObject({ state: 'error', error: '401' });
    d.signIn(bob);
    expect(await d.sync.flush()).toMatchObject({ answered: 0, pending: 0 });
    expect(await transferCount(h)).toBe(0);
    d.signIn(alice);
    expect(await d.sync.flush()).toMatchObject({ answered: 1, pending: 0 });
    expect(await transferCount(h)).toBe(1);
  });

  it('Y7 a replica cursor the server refuses starts the replica over', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice);
    await d.sync.pull();
    await d.db.meta.put({ key: `cursor:${alice.id}`, value: 'not-a-cursor' });
    await d.db.replica.put({
      key: `${alice.id}|transfers|stale`,
      memberId: alice.id,
      table: 'transfers',
      id: 'stale',
      seq: 0,
      record: {},
    });
    await d.sync.pull();
    const transfers = await replicaRecords(d.db, alice.id, 'transfers');
    expect(transfers).toEqual([]);
    expect((await replicaRecords(d.db, alice.id, 'members')).length).toBe(1);
  });
});
