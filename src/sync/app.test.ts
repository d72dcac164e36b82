import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { valueStore } from '../pwa/store';
import { focusTrigger, startAppSync, useSyncStatus } from './app';
import type { SyncEngine, SyncStatus } from './sync-engine';

function fakeSync(state: SyncStatus['state'] = 'idle') {
  const status = valueStore<SyncStatus>({ state, pending: 0, error: null, lastSync: null });
  const stop = vi.fn();
  const sync = {
    status,
    start: vi.fn(() => stop),
    sync: vi.fn(async () => undefined),
    refresh: vi.fn(async () => undefined),
    requestPull: vi.fn(),
  } as unknown as SyncEngine & {
    sync: ReturnType<typeof vi.fn>;
    start: ReturnType<typeof vi.fn>;
    requestPull: ReturnType<typeof vi.fn>;
  };
  return { sync, status, stop };
}

function fakeUsers(id: string | null) {
  const store = valueStore<{ id: string } | null>(id ? { id } : null);
  return { get: store.get, subscribe: store.subscribe, set: store.set };
}

describe('app sync wiring (docs/RULES.md Y8)', () => {
  it('Y8 starts following online events and syncs when a different member signs in', () => {
    const { sync, stop } = fakeSync();
    const users = fakeUsers(null);
    const end = startAppSync(sync, users, []);
    expect(sync.start).toHaveBeenCalledTimes(1);
    users.set({ id: '100001' });
    users.set({ id: '100001' });
    expect(sync.sync).toHaveBeenCalledTimes(1);
    users.set(null);
    users.set({ id: '100002' });
    expect(sync.sync).toHaveBeenCalledTimes(2);
    end();
    expect(stop).toHaveBeenCalled();
    users.set({ id: '100003' });
    expect(sync.sync).toHaveBeenCalledTimes(2);
  });

  it('Y8 does not sync on sign-in while offline; the reconnect will', () => {
    const { sync } = fakeSync('offline');
    const users = fakeUsers(null);
    startAppSync(sync, users, []);
    users.set({ id: '100001' });
    expect(sync.sync).not.toHaveBeenCalled();
  });

  it('Y8 pulls on each trigger (focus, demo change, feed account event) until stopped', () => {
    const { sync } = fakeSync();
    let fire: () => void = () => undefined;
    const trigger = (pull: () => void) => {
      fire = pull;
      return () => {
        fire = () => undefined;
      };
    };
    const end = startAppSync(sync, fakeUsers('100001'), [trigger]);
    fire();
    fire();
    expect(sync.requestPull).toHaveBeenCalledTimes(2);
    end();
    fire();
    expect(sync.requestPull).toHaveBeenCalledTimes(2);
  });

  it('Y8 the focus trigger pulls when the window regains focus', () => {
    const pull = vi.fn();
    const stop = focusTrigger(pull);
    window.dispatchEvent(new Event('focus'));
    expect(pull).toHaveBeenCalledTimes(1);
    stop();
    window.dispatchEvent(new Event('focus'));
    expect(pull).toHaveBeenCalledTimes(1);
  });

  it('useSyncStatus follows the status store', () => {
    const { sync, status } = fakeSync();
    const { result } = renderHook(() => useSyncStatus(sync));
    expect(result.current.state).toBe('idle');
    act(() => status.set({ state: 'syncing', pending: 3, error: null, lastSync: 5 }));
    expect(result.current).toEqual({ state: 'syncing', pending: 3, error: null, lastSync: 5 });
  });
});
