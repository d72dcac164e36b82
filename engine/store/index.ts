/** Opens the adapter named by `EngineOptions.storage`. */
import { DexieStore } from './dexie';
import { MemoryStore } from './memory';
import type { StoreAdapter } from './port';

export { defineTable, definedTables, indexKey, indexKeys, compareIds } from './port';
export type { Row, TableDef, StoreAdapter, StoredRow, RowRef, IndexFn, IndexValue } from './port';
export { Tx } from './tx';
export { MemoryStore } from './memory';
export { DexieStore } from './dexie';

export const DEFAULT_DB_NAME = 'strata-engine';

/** A ready adapter (the server's SQL store) is used as given; the engine closes it on `Engine.close()`. */
export async function openStore(
  storage: string | StoreAdapter | undefined,
  options: { onReplaced?: () => void } = {},
): Promise<StoreAdapter> {
  if (typeof storage === 'object') return storage;
  if (storage === 'memory') return new MemoryStore();
  return DexieStore.open(storage ?? DEFAULT_DB_NAME, options);
}
