/**
 * Sliding-window rate limits (login failures per account, captchas per engine). The hit times are stored,
 * so limits survive a reload and are deterministic under the injected clock.
 */
import { defineTable } from '../store/port';
import type { Tx } from '../store/tx';

export interface RateRow {
  id: string;
  hits: number[];
}

export const rateLimits = defineTable<RateRow>('rateLimits');

export async function recentHits(tx: Tx, key: string, now: number, windowMs: number): Promise<number> {
  const row = await tx.get(rateLimits, key);
  return row ? row.hits.filter((t) => t > now - windowMs).length : 0;
}

export async function addHit(tx: Tx, key: string, now: number, windowMs: number): Promise<void> {
  const row = await tx.get(rateLimits, key);
  const hits = (row?.hits ?? []).filter((t) => t > now - windowMs);
  hits.push(now);
  tx.put(rateLimits, { id: key, hits });
}

export function clearHits(tx: Tx, key: string): void {
  tx.delete(rateLimits, key);
}
