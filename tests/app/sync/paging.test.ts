/**
 * Record lists read one page from the device (the [memberId+table+order] index), newest first as the server's
 * lists order them, and a database written by an older version gets the order on upgrade.
 */
import { describe, expect, it } from 'vitest';
import { Dexie } from 'dexie';
import { openDeviceDb, replicaKey, replicaOrder } from '../../../src/sync/db';
import { newestFirst, readPage } from '../../../src/sync/live';

let n = 0;
const row = (memberId: string, table: string, id: string) => ({
  key: replicaKey(memberId, table, id),
  memberId,
  table,
  id,
  seq: Number(id) || 0,
  record: { id },
  order: replicaOrder(id),
});

describe('paged record lists on the device', () => {
  it('orders numeric ids by value, so a page is what newestFirst would show first', () => {
    const ids = ['9', '10', '100', '2', '11'];
    const byIndex = [...ids].sort((a, b) => (replicaOrder(a) < replicaOrder(b) ? 1 : -1));
    expect(byIndex).toEqual(newestFirst(ids.map((id) => ({ id }))).map((r) => r.id));
  });

  it("reads the newest page of one member's table, and the count of all of it", async () => {
    const db = openDeviceDb(`paging-${++n}`);
    await db.replica.bulkPut([
      ...Array.from({ length: 25 }, (_, i) => row('m1', 'transfers', String(i + 1))),
      row('m1', 'deposits', '99'),
      row('m2', 'transfers', '500'),
    ]);
    const page = await readPage(db, 'm1', 'transfers', 10);
    expect(page.records.map((r) => (r as { id: string }).id)).toEqual([
      '25',
      '24',
      '23',
      '22',
      '21',
      '20',
      '19',
      '18',
      '17',
      '16',
    ]);
    expect(page.total).toBe(25);
    expect((await readPage(db, 'm1', 'transfers', 30)).records).toHaveLength(25);
    expect((await readPage(db, 'm3', 'transfers', 10)).total).toBe(0);
    db.close();
  });

  it('upgrades a version 2 database: existing rows get their order and are listed', async () => {
    const name = `paging-upgrade-${++n}`;
    const old = new Dexie(name);
    old.version(1).stores({
      outbox: '++seq, &id, memberId',
      results: 'id, memberId',
      replica: 'key, memberId, [memberId+table]',
      meta: 'key',
    });
    old.version(2).stores({ cache: 'key, kind, [kind+used]' });
    await old.open();
    await old.table('replica').bulkPut(
      ['3', '12', '7'].map((id) => {
        const { order: _order, ...withoutOrder } = row('m1', 'transfers', id);
        return withoutOrder;
      }),
    );
    old.close();
    const db = openDeviceDb(name);
    const page = await readPage(db, 'm1', 'transfers', 2);
    expect(page.records.map((r) => (r as { id: string }).id)).toEqual(['12', '7']);
    expect(page.total).toBe(3);
    db.close();
  });
});
