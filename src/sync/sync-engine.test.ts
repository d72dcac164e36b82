import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/client';
import { openDeviceDb } from './db';
import { createSyncEngine, type OnlineSource } from './sync-engine';

let n = 0;

function setup(leads: boolean) {
  let online = false;
  const listeners = new Set<() => void>();
  const source: OnlineSource = {
    get: () => online,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const call = vi.fn(async (path: string) =>
    path === '/api/sync/push' ? { results: [] } : { cursor: 'c', changes: [], hasMore: false },
  );
  let stopLeading: (() => void) | undefined;
  const sync = createSyncEngine({
    api: { call } as unknown as ApiClient,
    db: openDeviceDb(`sync-engine-test-${++n}`),
    online: source,
    member: () => '100001',
    leader: (task) => {
      if (leads) stopLeading = task();
      return () => stopLeading?.();
    },
  });
  const goOnline = () => {
    online = true;
    for (const l of listeners) l();
  };
  return { sync, call, goOnline };
}

const idle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('sync engine and the tab election (docs/RULES.md Y8)', () => {
  it('Y8 the leader tab pulls when the device comes back online', async () => {
    const { sync, call, goOnline } = setup(true);
    const stop = sync.start();
    expect(sync.status.get().state).toBe('offline');
    goOnline();
    // Waits for the state the engine reaches, not for a timer.
    await vi.waitFor(() => {
      expect(call.mock.calls.map((c) => c[0])).toEqual(['/api/sync/pull']);
      expect(sync.status.get()).toEqual({ state: 'idle', pending: 0, error: null });
    });
    stop();
  });

  it('Y8 a tab that does not lead ignores online events', async () => {
    const { sync, call, goOnline } = setup(false);
    sync.start();
    goOnline();
    await idle();
    expect(call).not.toHaveBeenCalled();
  });
});
