/**
 * The device half against a real engine: the app's API client over a transport that can be down (nothing
 * reaches the server) or lossy (the server runs the call, the answer is lost), a manual online switch, and
 * a fresh 'strata-device' database per test (fake-indexeddb).
 */
import { createClient, type ApiClient } from '../../../src/api/client';
import type { Transport } from '../../../src/api/transport';
import { openDeviceDb, type DeviceDb } from '../../../src/sync/db';
import { createSyncEngine, type OnlineSource, type SyncEngine } from '../../../src/sync/sync-engine';
import type { Harness, Session } from '../../engine/harness';

export type Link = 'up' | 'down' | 'lossy';

export interface Device {
  api: ApiClient;
  db: DeviceDb;
  sync: SyncEngine;
  online: OnlineSource & { set(value: boolean): void };
  link(mode: Link): void;
  signIn(session: Session | null): void;
  /** Calls that reached the server. */
  delivered(): number;
}

let dbs = 0;

export function manualOnline(initial: boolean): OnlineSource & { set(value: boolean): void } {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      value = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function device(h: Harness, session: Session | null, initiallyOnline = true): Device {
  let mode: Link = 'up';
  let current = session;
  let delivered = 0;
  const transport: Transport = {
    async request({ signal: _signal, ...request }) {
      if (mode === 'down') throw new TypeError('Failed to fetch');
      delivered++;
      const response = await h.engine.handle(request);
      if (mode === 'lossy') throw new TypeError('The connection dropped before the answer arrived');
      return response;
    },
  };
  const api = createClient({
    transport: () => transport,
    credentials: () => (current ? { id: current.id, token: current.token } : null),
    onError: () => undefined,
  });
  const db = openDeviceDb(`strata-device-test-${++dbs}`);
  const online = manualOnline(initiallyOnline);
  const sync = createSyncEngine({ api, db, online, member: () => current?.id ?? null });
  return {
    api,
    db,
    sync,
    online,
    link: (m) => {
      mode = m;
    },
    signIn: (s) => {
      current = s;
    },
    delivered: () => delivered,
  };
}

/** Resolves once the sync status is back to a resting state (idle, offline or error). */
export async function settled(d: Device): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (d.sync.status.get().state !== 'syncing') return;
  }
  throw new Error('sync did not settle');
}
