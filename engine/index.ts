/**
 * The engine's only public entry (API.md "Engine entry point"). src/ imports the engine through this file
 * alone; tests drive it through `handle` exactly as the app and the server do.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { resolveConfig } from './config';
import type { EngineRequest, EngineResponse } from './contract';
import type { FeedMessage } from './feed';
import { checkInvariants, rebuildBalances } from './ledger/invariants';
import { createRandom } from './random';
import { domains } from './routes';
import { Runtime, type Clock } from './runtime';
import { openStore } from './store';

export type * from './contract';
export type { FeedMessage } from './feed';
export type { Clock } from './runtime';

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export interface EngineOptions {
  clock?: Clock;
  seed?: number;
  /** "memory", or the name of a Dexie (IndexedDB) database; the default is IndexedDB 'strata-engine'. */
  storage?: 'memory' | string;
  /** Partial overrides of the business constants (engine/config.ts); amounts as decimal strings. */
  config?: Record<string, unknown>;
}

/** Read-only checks for tests, benches and support tooling; never part of the wire contract. */
export interface EngineDiagnostics {
  /** Broken ledger rules (docs/RULES.md L1-L6), empty when all hold. */
  checkInvariants(): Promise<string[]>;
  /** Every balance recomputed from the journal: "account|asset" -> micro-units. */
  rebuildBalances(): Promise<Map<string, bigint>>;
  /** SHA-256 of every stored record in canonical form: same seed and calls -> same hash. */
  stateHash(): Promise<string>;
  /** Every answerable path. */
  paths(): string[];
}

export interface Engine {
  handle(request: EngineRequest): Promise<EngineResponse>;
  settle(): Promise<void>;
  subscribe(listener: (message: FeedMessage) => void): () => void;
  diagnostics: EngineDiagnostics;
  /** Closes the storage (Dexie) after queued work finished. */
  close(): Promise<void>;
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

const systemClock: Clock = { now: () => performance.timeOrigin + performance.now() };

/** Canonical JSON: sorted keys, bigints tagged, so equal states hash equally on every adapter. */
function canonical(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(`${value}n`);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const config = resolveConfig(options.config);
  const seed = options.seed ?? 1;
  const clock = options.clock ?? systemClock;
  const store = await openStore(options.storage);
  const runtime = new Runtime(store, config, clock, seed, createRandom(seed), domains);
  await runtime.init();

  const diagnostics: EngineDiagnostics = {
    checkInvariants: () => runtime.serial(() => checkInvariants(store)),
    rebuildBalances: () => runtime.serial(() => rebuildBalances(store)),
    stateHash: () =>
      runtime.serial(async () => {
        const parts: string[] = [];
        for (const table of await store.tables())
          parts.push(`${table}:${canonical(await store.scan(table))}`);
        return bytesToHex(sha256(utf8ToBytes(parts.join('\n'))));
      }),
    paths: () => runtime.router.paths(),
  };

  return {
    handle: (request) => runtime.handle(request),
    settle: () => runtime.settle(),
    subscribe: (listener) => runtime.feed.subscribe(listener),
    diagnostics,
    close: () => runtime.serial(() => store.close()),
  };
}
