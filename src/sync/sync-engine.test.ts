import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/client';
import { openDeviceDb } from './db';
import { FIRST_PAGE, forgetMember, replicaRecords } from './replica';
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
  const call = vi.fn(async (path: string, _body?: unknown) =>
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
    // Waits for the state the pull leaves behind (its time recorded), not for a timer.
    await vi.waitFor(() => expect(sync.status.get().lastSync).not.toBeNull());
    expect(call.mock.calls.map((c) => c[0])).toEqual(['/api/sync/pull']);
    expect(sync.status.get()).toMatchObject({ state: 'idle', pending: 0, error: null });
    stop();
  });

  it('Y6 a pull from nothing asks for a short first page (the profile and balances come first), then pages from its cursor', async () => {
    const { sync, call } = setup(true);
    call.mockImplementationOnce(async () => ({ cursor: 'c1', changes: [], hasMore: true }));
    await sync.pull();
    expect(call.mock.calls.map((c) => [c[0], c[1]])).toEqual([
      ['/api/sync/pull', { limit: FIRST_PAGE }],
      ['/api/sync/pull', { cursor: 'c1' }],
    ]);
  });

  it('Y8 a tab that does not lead ignores online events', async () => {
    const { sync, call, goOnline } = setup(false);
    sync.start();
    goOnline();
    await idle();
    expect(call).not.toHaveBeenCalled();
  });
});

describe('a sync that got no answer is tried again (docs/OFFLINE.md "Retries")', () => {
  function failing(errors: unknown[]) {
    const timers: Array<{ task: () => void; ms: number }> = [];
    const call = vi.fn(async (path: string) => {
      const next = errors.shift();
      if (next !== undefined) throw next;
      return path === '/api/sync/push' ? { results: [] } : { cursor: 'c', changes: [], hasMore: false };
    });
    const sync = createSyncEngine({
      api: { call } as unknown as ApiClient,
      db: openDeviceDb(`sync-engine-retry-${++n}`),
      online: { get: () => true, subscribe: () => () => undefined },
      member: () => '100001',
      schedule: (task, ms) => {
        timers.push({ task, ms });
        return () => undefined;
      },
    });
    return { sync, call, timers };
  }

  it('retries after 1 s, then 2 s, 4 s ... at most 30 s, and starts again at 1 s after a success', async () => {
    const offline = { code: 0, msg: 'offline' };
    const { sync, call, timers } = failing([offline, offline, offline]);
    await expect(sync.pull()).rejects.toEqual(offline);
    expect(sync.status.get()).toMatchObject({ state: 'error', error: '0' });
    expect(timers.map((t) => t.ms)).toEqual([1_000]);
    timers[0]?.task();
    await vi.waitFor(() => expect(timers.map((t) => t.ms)).toEqual([1_000, 2_000]));
    timers[1]?.task();
    await vi.waitFor(() => expect(timers.map((t) => t.ms)).toEqual([1_000, 2_000, 4_000]));
    timers[2]?.task();
    // The third retry is answered: state idle, no further timer.
    await vi.waitFor(() => expect(sync.status.get()).toMatchObject({ state: 'idle', error: null }));
    expect(timers).toHaveLength(3);
    expect(call.mock.calls.map((c) => c[0])).toEqual([
      '/api/sync/pull',
      '/api/sync/pull',
      '/api/sync/pull',
      '/api/sync/pull',
    ]);
    // Back-off starts over after a success.
    call.mockRejectedValueOnce(offline);
    await expect(sync.pull()).rejects.toEqual(offline);
    expect(timers.at(-1)?.ms).toBe(1_000);
  });

  it('never waits more than 30 s between tries', async () => {
    const offline = { code: 503, msg: 'unavailable' };
    const { sync, timers } = failing(Array.from({ length: 8 }, () => offline));
    await sync.pull().catch(() => undefined);
    for (let i = 0; i < 7; i++) {
      timers[i]?.task();
      await vi.waitFor(() => expect(timers).toHaveLength(i + 2));
    }
    expect(timers.map((t) => t.ms)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('does not retry after 401: the session is gone', async () => {
    const { sync, timers } = failing([{ code: 401, msg: 'Token expired' }]);
    await sync.pull().catch(() => undefined);
    expect(timers).toEqual([]);
  });
});

describe('a logout while a pull page is on its way', () => {
  it('writes neither the page nor its cursor, so the next pull starts from nothing', async () => {
    const db = openDeviceDb(`sync-engine-stale-${++n}`);
    let release: (() => void) | undefined;
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const profile = { seq: 1, table: 'members', id: '100001', op: 'put', record: { id: '100001' } };
    const pages = [
      { cursor: 'c1', changes: [profile], hasMore: false },
      {
        cursor: 'late',
        changes: [{ seq: 9, table: 'transfers', id: '9', op: 'put', record: {} }],
        hasMore: false,
      },
      { cursor: 'c1', changes: [profile], hasMore: false },
    ];
    const call = vi.fn(async (_path: string, _body: { cursor?: string }) => {
      const page = pages.shift();
      if (page?.cursor === 'late') await arrived;
      return page;
    });
    const sync = createSyncEngine({
      api: { call } as unknown as ApiClient,
      db,
      online: { get: () => true, subscribe: () => () => undefined },
      member: () => '100001',
    });
    await sync.pull();
    const pulling = sync.pull();
    await vi.waitFor(() => expect(call).toHaveBeenCalledTimes(2));
    expect(call.mock.calls[1]?.[1]).toEqual({ cursor: 'c1' });
    // The member logs out (the replica and its cursor are forgotten) before the page arrives.
    await forgetMember(db, '100001');
    release?.();
    expect(await pulling).toBe(0);
    expect(await replicaRecords(db, '100001', 'transfers')).toEqual([]);
    // Signed in again: the pull starts from nothing (no cursor left behind) and gets the profile back.
    await sync.pull();
    expect(call.mock.calls[2]?.[1]).toEqual({ limit: FIRST_PAGE });
    expect(await replicaRecords(db, '100001', 'members')).toEqual([{ id: '100001' }]);
  });
});
