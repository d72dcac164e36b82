import type { IndexFn, Row, TableDef } from '../../engine/store/port';

/**
 * A table for a storage test, described as `defineTable` describes the engine's own but not registered with
 * them: test files share worker processes, and the schema drift test (server/sql-schema.test.ts) must see
 * the engine's tables only, whatever ran before it in that process.
 */
export function scratchTable<T extends Row>(
  name: string,
  indexes: Record<string, IndexFn<T>> = {},
): TableDef<T> {
  return { name, indexes };
}
