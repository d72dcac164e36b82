/**
 * The demo-mode server: one engine on IndexedDB, its scheduled jobs run on a timer, and the demo tools
 * (fast-forward, reset). engine.worker.ts exposes this object over Comlink; tests call it directly, so
 * everything here is plain async functions with no Comlink or Worker in sight.
 */
import { createEngine as createRealEngine } from '../../engine/index';
import type { Engine, EngineOptions, EngineRequest, EngineResponse, FeedMessage } from '../../engine/index';
import { DEMO_SEED, DEMO_STORAGE } from '../api/config';
import { broadcast as broadcastToTabs } from '../pwa/broadcast';
import { createOffsetStore, type OffsetStore } from './offset-store';

/** Scheduled jobs (chain confirmations, reviews, VIP expiry) are checked this often. */
export const SETTLE_EVERY_MS = 1000;

export interface EngineHostOptions {
  storage?: string;
  seed?: number;
  /** Wall-clock time; the engine sees this plus the fast-forward offset. */
  now?: () => number;
  createEngine?: (options: EngineOptions) => Promise<Engine>;
  offsets?: OffsetStore;
  /** Deletes the engine's database; the default deletes the IndexedDB database of that name. */
  deleteStorage?: (name: string) => Promise<void>;
  /** 0 turns the timer off (tests call settle() themselves). */
  settleEveryMs?: number;
  /** A newer version is upgrading the engine's database; the default tells every tab to reload. */
  onStorageReplaced?: () => void;
}

export interface EngineHost {
  handle(request: EngineRequest): Promise<EngineResponse>;
  settle(): Promise<void>;
  /** The feed survives a reset: listeners move to the new engine. */
  subscribe(listener: (message: FeedMessage) => void): () => void;
  /** The engine's current time in ms (wall clock plus fast-forward), for countdowns on screen. */
  now(): Promise<number>;
  /** Fast-forwards the simulated clock by `ms` and runs every job that became due. Answers the new time. */
  advance(ms: number): Promise<number>;
  /** Deletes every demo record and starts a fresh engine at the real time. */
  reset(): Promise<void>;
  /** Stops the timer (tests, and a worker being torn down). */
  dispose(): void;
}

export function deleteIndexedDb(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`Could not delete ${name}`));
  });
}

export function createEngineHost(options: EngineHostOptions = {}): EngineHost {
  const storage = options.storage ?? DEMO_STORAGE;
  const seed = options.seed ?? DEMO_SEED;
  const wallClock = options.now ?? (() => Date.now());
  const makeEngine = options.createEngine ?? createRealEngine;
  const offsets = options.offsets ?? createOffsetStore(`${storage}-clock`);
  const deleteStorage = options.deleteStorage ?? deleteIndexedDb;
  const settleEveryMs = options.settleEveryMs ?? SETTLE_EVERY_MS;
  const onStorageReplaced = options.onStorageReplaced ?? (() => broadcastToTabs({ type: 'reload' }));

  let offset = 0;
  const clock = { now: () => wallClock() + offset, wall: wallClock };
  const listeners = new Set<(message: FeedMessage) => void>();
  const broadcast = (message: FeedMessage): void => {
    for (const listener of listeners) listener(message);
  };

  const start = async (): Promise<{ engine: Engine; unsubscribe: () => void }> => {
    // Passkeys are bound to the page's own origin: the demo's engine answers only this site's pages.
    const origin = typeof location === 'undefined' ? null : location.origin;
    const config = origin ? { passkeyOrigins: [origin] } : undefined;
    const engine = await makeEngine({
      clock,
      seed,
      storage,
      onStorageReplaced,
      ...(config ? { config } : {}),
    });
    return { engine, unsubscribe: engine.subscribe(broadcast) };
  };
  // Every call waits for the engine that is current when it starts, so a reset never serves a half-made one.
  let current: Promise<{ engine: Engine; unsubscribe: () => void }> = offsets.load().then((stored) => {
    offset = stored;
    return start();
  });

  // Settles never overlap: a slow settle (IndexedDB under load) skips the ticks it outlasted.
  let settling: Promise<void> | null = null;
  const settle = (): Promise<void> => {
    settling ??= current
      .then(({ engine }) => engine.settle())
      .finally(() => {
        settling = null;
      });
    return settling;
  };

  const timer =
    settleEveryMs > 0
      ? setInterval(() => {
          settle().catch((error: unknown) => console.error('demo engine: settle failed', error));
        }, settleEveryMs)
      : undefined;

  return {
    async handle(request) {
      // As on a server, a call sees every job due by now (a review that just fell due, a confirmation).
      await settle().catch(() => undefined);
      return (await current).engine.handle(request);
    },
    settle,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    now: async () => {
      await current;
      return clock.now();
    },
    async advance(ms) {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`advance: ${ms} is not a whole ms >= 0`);
      await current;
      offset += ms;
      await offsets.save(offset);
      await settle();
      return clock.now();
    },
    async reset() {
      const previous = await current;
      await settling;
      previous.unsubscribe();
      // Closing first lets the delete go through at once instead of waiting on an open connection.
      if ('close' in previous.engine) await previous.engine.close();
      current = (async () => {
        await deleteStorage(storage);
        offset = 0;
        await offsets.save(0);
        return start();
      })();
      await current;
    },
    dispose() {
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
