/**
 * G17: a newer version of the app upgrading the engine's IndexedDB database makes this engine close it at
 * once (the upgrade waits for every old connection), refuse further work instead of reopening the old
 * schema, and tell its owner (who reloads every tab into the new version).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { createEngine, manualClock } from '../../engine/index';
import { T0 } from './harness';

function openAt(name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onupgradeneeded = () => request.result.createObjectStore('next');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
    request.onblocked = () => reject(new Error('blocked: the old connection did not close'));
  });
}

describe('G17 storage upgraded by a newer version', () => {
  it('closes, tells its owner, and lets the upgrade through', async () => {
    const name = `upgrade-${Math.random().toString(36).slice(2)}`;
    const onStorageReplaced = vi.fn();
    const engine = await createEngine({
      clock: manualClock(T0),
      seed: 1,
      storage: name,
      config: { pbkdf2Iterations: 1_000 },
      onStorageReplaced,
    });
    expect((await engine.handle({ method: 'GET', path: '/index/index/verify' })).body.code).toBe(0);

    const newer = await openAt(name, 1_000);
    expect(onStorageReplaced).toHaveBeenCalledOnce();
    expect([...newer.objectStoreNames]).toContain('next');
    newer.close();

    const after = await engine.handle({ method: 'GET', path: '/index/index/verify' });
    expect(after.body.code).not.toBe(0);
  });
});
