/**
 * Where the demo's fast-forward offset lives between reloads. It sits beside the engine's database, not in
 * it, because the engine's storage is the engine's own business (API.md only promises a Dexie database name).
 */
import Dexie, { type Table } from 'dexie';

export interface OffsetStore {
  load(): Promise<number>;
  save(offsetMs: number): Promise<void>;
}

interface Setting {
  key: string;
  value: number;
}

const OFFSET_KEY = 'clockOffsetMs';

export function createOffsetStore(databaseName: string): OffsetStore {
  const db = new Dexie(databaseName) as Dexie & { settings: Table<Setting, string> };
  db.version(1).stores({ settings: 'key' });
  return {
    async load() {
      const row = await db.settings.get(OFFSET_KEY);
      return row && Number.isSafeInteger(row.value) && row.value >= 0 ? row.value : 0;
    },
    async save(offsetMs) {
      await db.settings.put({ key: OFFSET_KEY, value: offsetMs });
    },
  };
}

/** For tests and for hosts that need no persistence. */
export function memoryOffsetStore(initial = 0): OffsetStore {
  let value = initial;
  return {
    load: async () => value,
    save: async (offsetMs) => {
      value = offsetMs;
    },
  };
}
