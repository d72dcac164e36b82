/**
 * The engine's only public entry (API.md "Engine entry point"). src/ imports the engine through this file
 * alone; tests drive it through `handle` exactly as the app and the server do.
 */
import type { EngineRequest, EngineResponse } from './contract';
import type { FeedMessage } from './feed';
import type { Clock } from './runtime';
import type { StoreAdapter } from './store/port';

export type * from './contract';
export type { FeedMessage } from './feed';
export type { Clock } from './runtime';
export type { StoreAdapter, StoredRow, RowRef } from './store/port';
/**
 * Pure address rules, shared with the app so a withdrawal address is checked (checksum included) as it is
 * typed. The engine itself is reached through dynamic imports in `createEngine`, so importing these does not
 * pull the engine into the app's main-thread bundle.
 */
export { validateAddress, detectNetwork, type AddressCheck } from './chain/validate';
export type { Network } from './chain/encoding';

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export interface EngineOptions {
  clock?: Clock;
  seed?: number;
  /**
   * "memory", the name of a Dexie (IndexedDB) database (the default is IndexedDB 'strata-engine'), or an
   * opened adapter of engine/store/port.ts (the server's SQL store).
   */
  storage?: 'memory' | string | StoreAdapter;
  /** Partial overrides of the business constants (engine/config.ts); amounts as decimal strings. */
  config?: Record<string, unknown>;
  /**
   * IndexedDB storage only: a newer version of the app is upgrading the database, so this engine has closed
   * it and refuses further work. Its owner should reload into the new version.
   */
  onStorageReplaced?: () => void;
  /**
   * Random bytes for key material that must not follow the seed (the demo deposit key: docs/SERVER.md
   * "Key custody"); crypto.getRandomValues by default. Tests inject a fixed source for reproducible hashes.
   */
  entropy?: (bytes: number) => Uint8Array;
}

/** Read-only checks for tests, benches and support tooling; never part of the wire contract. */
export interface EngineDiagnostics {
  /** Broken ledger rules (docs/RULES.md L1-L6), empty when all hold. */
  checkInvariants(): Promise<string[]>;
  /** Every balance recomputed from the journal: "account|asset" -> micro-units. */
  rebuildBalances(): Promise<Map<string, bigint>>;
  /** SHA-256 of every stored record in canonical form: same seed and calls -> same hash. */
  stateHash(): Promise<string>;
  /** Every stored record by table (for tests and support tooling; contains secret hashes). */
  snapshot(): Promise<Record<string, unknown[]>>;
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

export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const [{ assembleEngine }, { domains }] = await Promise.all([import('./engine'), import('./routes')]);
  return assembleEngine(options, domains);
}
