/**
 * The engine's only public entry (API.md "Engine entry point").
 * TEMPORARY SCAFFOLD: createEngine answers 404 to everything until the engine core lands (issue 3).
 */
import type { EngineRequest, EngineResponse } from './contract';

export type * from './contract';

export interface Clock {
  now(): number;
}

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export interface EngineOptions {
  clock?: Clock;
  seed?: number;
  /** "memory", or the name of a Dexie (IndexedDB) database; the default is IndexedDB. */
  storage?: 'memory' | string;
  config?: Record<string, unknown>;
}

export interface FeedMessage {
  type: string;
  data: unknown;
}

export interface Engine {
  handle(request: EngineRequest): Promise<EngineResponse>;
  settle(): Promise<void>;
  subscribe(listener: (message: FeedMessage) => void): () => void;
}

export function manualClock(startMs: number): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export async function createEngine(_options: EngineOptions = {}): Promise<Engine> {
  return {
    handle: async () => ({ status: 200, body: { code: 404, msg: 'Not implemented yet', data: null } }),
    settle: async () => undefined,
    subscribe: () => () => undefined,
  };
}
