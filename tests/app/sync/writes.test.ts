/**
 * Writes through the outbox on a real engine (src/sync/writes.ts, outbox.ts, pending.ts): answered at once
 * online, waiting offline with their amount, pushed once however the answer is lost, and the fields a
 * withdrawal must never leave on the device (its security key) withheld from IndexedDB; the notices' read
 * state recorded offline on one device, applied once, and the same on the member's other device.
 */
import { describe, expect, it } from 'vitest';
import { enqueue, flushOutbox, SECRET_GRACE_MS } from '../../../src/sync/outbox';
import { recordedSeen } from '../../../src/lib/notifications';
import { pendingWrites, waitingOutgoing } from '../../../src/sync/pending';
import { replicaRecords } from '../../../src/sync/replica';
import { createWrites, startWriteNotices, type Notice } from '../../../src/sync/writes';
import { pair, syncHarness, transferCount } from '../../engine/sync-kit';
import { device, type Device } from './device-kit';

function writesOn(d: Device, memberId: string, retryMs = 5) {
  return createWrites({
    db: d.db,
    sync: d.sync,
    online: d.online.get,
    member: () => memberId,
    retryMs,
  });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition not reached');
}

/** Every row of every table of the device database, as text. */
async function deviceText(d: Device): Promise<string> {
  const tables = await Promise.all(d.db.tables.map((t) => t.toArray()));
  return JSON.stringify(tables);
}

describe('writes through the outbox (docs/OFFLINE.md "Writes and the outbox")', () => {
  it('online: the answer comes back to the screen, and once acknowledged no pending row is left', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, true);
    const writes = writesOn(d, alice.id);
    const sent = await writes.send('/api/transfer/submit', { account: 'bob', amount: '2' });
    expect(sent.result?.code).toBe(0);
    expect(await pendingWrites(d.db, alice.id, ['/api/transfer/submit'])).toMatchObject([
      { id: sent.id, state: 'applied', args: { amount: '2' } },
    ]);
    await writes.acknowledge(sent.id);
    expect(await pendingWrites(d.db, alice.id, ['/api/transfer/submit'])).toEqual([]);
  });

  it('offline: waiting rows carry their amounts (summed exactly), and the answer replaces the mark', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, false);
    const writes = writesOn(d, alice.id);
    const a = await writes.send('/api/transfer/submit', { account: 'bob', amount: '1.1' });
    const b = await writes.send('/api/transfer/submit', { account: 'bob', amount: '2.2' });
    expect(a.result).toBeNull();
    expect(d.delivered()).toBe(0);
    const rows = await pendingWrites(d.db, alice.id, ['/api/transfer/submit']);
    expect(rows.map((r) => [r.state, r.args.amount])).toEqual(
      expect.arrayContaining([
        ['waiting', '1.1'],
        ['waiting', '2.2'],
      ]),
    );
    // 1.1 + 2.2 in floating point is 3.3000000000000003; in micro-units it is 3.3.
    expect(waitingOutgoing(rows)).toBe('3.3');
    d.online.set(true);
    await d.sync.flush();
    const after = await pendingWrites(d.db, alice.id, ['/api/transfer/submit']);
    expect(after.map((r) => r.state)).toEqual(['applied', 'applied']);
    expect(waitingOutgoing(after)).toBe('0');
    expect(await writes.answer(b.id)).toMatchObject({ code: 0 });
    expect(await transferCount(h)).toBe(2);
  });

  it('a lost answer: the push reached the engine, the retry gets the first answer and nothing twice', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, true);
    const writes = writesOn(d, alice.id);
    d.link('lossy');
    const sent = await writes.send('/api/transfer/submit', { account: 'bob', amount: '5' });
    expect(sent.result).toBeNull();
    expect(await transferCount(h)).toBe(1);
    expect((await pendingWrites(d.db, alice.id, ['/api/transfer/submit']))[0]?.state).toBe('waiting');
    d.link('up');
    // The writes retry on their own while the device is online.
    expect(await writes.answer(sent.id)).toMatchObject({ code: 0 });
    expect(await transferCount(h)).toBe(1);
    expect(d.delivered()).toBeGreaterThanOrEqual(2);
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('a withheld field (the security key) is sent with the push but never written to the device', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, true);
    const writes = writesOn(d, alice.id);
    const secretKey = 'key1';
    const sent = await writes.send('/api/Viplist/Buyvip', { level: 1, key: secretKey }, { secret: ['key'] });
    // Applied: the engine got the key.
    expect(sent.result?.code).toBe(0);
    const text = await deviceText(d);
    expect(text).toContain('/api/Viplist/Buyvip');
    expect(text).not.toContain(secretKey);
    expect(text).toContain('"args":{"level":1}');
  });

  it('secret fields the args do not carry withhold nothing: after a reload the entry goes out at once', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, true);
    // A transfer names its second-factor fields as secret; a member without two-factor sends neither.
    await enqueue(
      d.db,
      {
        id: 'plain-1',
        memberId: alice.id,
        name: '/api/transfer/submit',
        args: { account: 'bob', amount: '5', code: undefined },
        createdAt: 1_000,
      },
      ['code', 'passkey'],
    );
    const stored = (await d.db.outbox.toArray())[0] as { withheld?: string[] } | undefined;
    expect(stored?.withheld).toBeUndefined();
    // A reload forgets what this tab held; the entry still leaves well within the grace period.
    const options = { memberId: alice.id, clientId: 'c', now: () => 1_001 };
    expect(await flushOutbox(d.db, d.api, options)).toMatchObject({ answered: 1, pending: 0 });
    expect((await d.db.results.get('plain-1'))?.code).toBe(0);
    expect(await transferCount(h)).toBe(1);
  });

  it('an entry whose key only another tab holds waits for it, then is sent without it and refused, applying nothing', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, true);
    // Queued by "another tab": this module never held its key.
    await d.db.outbox.add({
      id: 'other-tab-1',
      memberId: alice.id,
      name: '/api/Viplist/Buyvip',
      args: { level: 1 },
      createdAt: 1_000,
      withheld: ['key'],
    } as Parameters<typeof d.db.outbox.add>[0]);
    const options = { memberId: alice.id, clientId: 'c', now: () => 1_000 + SECRET_GRACE_MS - 1 };
    expect(await flushOutbox(d.db, d.api, options)).toMatchObject({ answered: 0, pending: 1 });
    expect(d.delivered()).toBe(0);
    const late = { ...options, now: () => 1_000 + SECRET_GRACE_MS };
    expect(await flushOutbox(d.db, d.api, late)).toMatchObject({ answered: 1, pending: 0 });
    expect((await d.db.results.get('other-tab-1'))?.code).toBe(400);
    const vip = await h.call('/api/user/getuser', undefined, alice);
    expect(vip.data.vip).toBe('vip0');
  });

  it('an entry queued with a held key goes out with it even after the grace period', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, false);
    await enqueue(
      d.db,
      {
        id: 'held-1',
        memberId: alice.id,
        name: '/api/Viplist/Buyvip',
        args: { level: 1, key: 'key1' },
        createdAt: 0,
      },
      ['key'],
    );
    d.online.set(true);
    await until(async () => (await d.sync.flush()).pending === 0);
    expect((await d.db.results.get('held-1'))?.code).toBe(0);
  });

  it('an answer nobody awaited is announced once per device, even with two tabs watching; a refusal keeps its row', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const d = device(h, alice, false);
    const writes = writesOn(d, alice.id);
    const seen: Notice[] = [];
    const watch = () =>
      startWriteNotices(
        { db: d.db, writes, member: () => alice.id, subscribeMember: () => () => undefined },
        (notice) => seen.push(notice),
      );
    const tabs = [watch(), watch()];
    await writes.send('/api/transfer/submit', { account: 'bob', amount: '1' });
    // No such member: refused with its catalogue code, nothing applied.
    await writes.send('/api/transfer/submit', { account: 'nobody-here', amount: '1' });
    d.online.set(true);
    await d.sync.flush();
    await until(async () => seen.length >= 2);
    // Both answers are claimed (notified) in the database: neither tab can present them again.
    const answers = await d.db.results.toArray();
    expect(answers.every((r) => (r as { notified?: boolean }).notified)).toBe(true);
    expect(seen.map((n) => n.applied).sort()).toEqual([false, true]);
    const rows = await pendingWrites(d.db, alice.id, ['/api/transfer/submit']);
    expect(rows.map((r) => [r.state, r.args.account])).toEqual([['failed', 'nobody-here']]);
    expect(rows[0]?.code).not.toBe(0);
    expect(await transferCount(h)).toBe(1);
    tabs.forEach((stop) => stop());
  });

  it("the notices' read state: recorded offline on the phone, applied once, the same on the tablet", async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const ids: string[] = [];
    for (const phrase of ['first tea', 'second tea']) {
      expect((await h.call('/api/security/antiphishing', { phrase }, alice)).code).toBe(0);
      ids.push((await h.call('/api/security/notices', {}, alice)).data.list[0]!.id);
    }
    const [older, newest] = ids as [string, string];
    const phone = device(h, alice, false);
    const tablet = device(h, alice, true);
    const path = '/api/notice/seen';
    const reads = (d: Device) => replicaRecords<{ seen: string }>(d.db, alice.id, 'noticeReads');
    const recorded = async (d: Device) =>
      recordedSeen(await reads(d), await pendingWrites(d.db, alice.id, [path]));
    // Offline, the phone's write waits in its outbox and already counts there as recorded.
    const sent = await writesOn(phone, alice.id).send(path, { id: newest });
    expect(sent.result).toBeNull();
    expect(await recorded(phone)).toBe(Number(newest));
    await tablet.sync.pull();
    expect(await recorded(tablet)).toBe(0);
    // Back online, the push reaches the engine but its answer is lost; the retry gets the first answer.
    phone.online.set(true);
    phone.link('lossy');
    expect(await phone.sync.flush()).toMatchObject({ answered: 0, pending: 1 });
    phone.link('up');
    expect(await phone.sync.flush()).toMatchObject({ answered: 1, pending: 0 });
    expect((await phone.sync.result(sent.id))?.code).toBe(0);
    // Applied once: one change in the member's log, the same row on both devices.
    const log = (await h.call('/api/sync/pull', {}, alice)).data;
    expect(log.changes.filter((c) => c.table === 'noticeReads')).toHaveLength(1);
    await tablet.sync.pull();
    expect((await reads(tablet)).map((r) => r.seen)).toEqual([newest]);
    // The tablet's own older mark, sent later, changes nothing anywhere.
    const late = await writesOn(tablet, alice.id).send(path, { id: older });
    expect(late.result).toMatchObject({ code: 0, data: { seen: newest } });
    await phone.sync.pull();
    expect((await reads(phone)).map((r) => r.seen)).toEqual([newest]);
    expect(await recorded(tablet)).toBe(Number(newest));
  });
});
