/**
 * Ids from persisted counters, one sequence per kind, written through the unit of work: a failed call
 * rolls its counters back with everything else, and a reload never reuses an id. Ids are decimal strings;
 * member ids start at 100001 so they never look like small record ids.
 */
import { defineTable } from './store/port';
import type { Tx } from './store/tx';

export interface CounterRow {
  id: string;
  value: number;
}

export const counters = defineTable<CounterRow>('counters');

const BASES: Record<string, number> = { member: 100_000 };

export class Ids {
  constructor(private readonly tx: Tx) {}

  /** The next id of `kind` ("1", "2", ...; members "100001", ...). */
  async next(kind: string): Promise<string> {
    return String(await this.nextNumber(kind));
  }

  async nextNumber(kind: string): Promise<number> {
    // The SQL store's sequences: concurrent units of work on several servers never collide on a counter row.
    const fromStore = await this.tx.nextId(kind);
    if (fromStore !== undefined) return fromStore;
    const row = await this.tx.get(counters, kind);
    const value = (row?.value ?? BASES[kind] ?? 0) + 1;
    this.tx.put(counters, { id: kind, value });
    return value;
  }
}
