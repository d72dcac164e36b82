import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onDatabaseUpgrade } from './db-upgrade';

const NAME = 'pwa-upgrade-test';

afterEach(async () => {
  await Dexie.delete(NAME);
});

function oldTab(): Dexie {
  const db = new Dexie(NAME);
  db.version(1).stores({ accounts: 'id' });
  return db;
}

function newTab(): Dexie {
  const db = new Dexie(NAME);
  db.version(1).stores({ accounts: 'id' });
  db.version(2).stores({ accounts: 'id', orders: 'id, symbol' });
  return db;
}

describe('a database upgrade in another tab', () => {
  it('closes this tab\u2019s connection and reloads it, so the upgrade goes through at once', async () => {
    const old = oldTab();
    await old.table('accounts').put({ id: 'a1' });
    const reload = vi.fn();
    onDatabaseUpgrade(old, { reload });

    const upgraded = newTab();
    await upgraded.open();
    expect(upgraded.verno).toBe(2);
    expect(reload).toHaveBeenCalledOnce();
    expect(old.isOpen()).toBe(false);
    // Nothing saved before the upgrade is lost.
    expect(await upgraded.table('accounts').get('a1')).toEqual({ id: 'a1' });
    // The stale tab cannot write through its old schema any more.
    await expect(old.table('accounts').put({ id: 'a2' })).rejects.toThrow();
    upgraded.close();
  });

  it('tells the upgrading tab when another connection keeps it waiting', async () => {
    const stubborn = oldTab();
    await stubborn.open();
    // A tab that does not cooperate (no onDatabaseUpgrade, default handler disabled).
    stubborn.on('versionchange', () => false);
    const onBlocked = vi.fn();
    const upgrading = newTab();
    const unsubscribe = onDatabaseUpgrade(upgrading, { onBlocked, reload: vi.fn() });
    const opening = upgrading.open();
    await vi.waitFor(() => expect(onBlocked).toHaveBeenCalled());
    stubborn.close();
    await opening;
    expect(upgrading.verno).toBe(2);
    unsubscribe();
    upgrading.close();
  });
});
