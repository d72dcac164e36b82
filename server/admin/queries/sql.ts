/**
 * What the back office's read side shares (queries/*.ts): positional parameters, paging, grouped counts per
 * status, and the engine's values as the contract shows them. Read straight from the engine's SQL tables
 * (server/sql-schema.ts) with LIMIT/OFFSET and grouped counts, so a page costs the same however long the
 * queue is. Read-only: decisions go through engine.operations.
 */
import type { AdminList } from '../../../contract/admin/model';
import { formatAmount } from '../../../engine/server';
import type { SqlConnection } from '../../sql-driver';

export interface Page {
  page: number;
  limit: number;
}

/** Positional parameters for one statement. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}

export const micro = (value: unknown): string => formatAmount(BigInt(String(value ?? '0')));
export const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const likePrefix = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function counted(
  c: SqlConnection,
  sql: string,
  params: unknown[],
  keys: readonly string[],
): Promise<Record<string, number>> {
  const { rows } = await c.query<{ k: string; n: string }>(sql, params);
  const counts: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  for (const r of rows) counts[r.k] = Number(r.n);
  return counts;
}

export function listOf<T>(
  list: T[],
  page: Page,
  counts: Record<string, number>,
  total: number,
): AdminList<T> {
  return { list, total, page: page.page, limit: page.limit, counts };
}

export const offset = (page: Page) => (page.page - 1) * page.limit;

/** A record's value and its member's username, as the queue queries select them. */
export interface RecordRow {
  v: unknown;
  username: unknown;
}
