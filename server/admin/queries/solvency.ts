/** What the platform owes members, summed in the database. */
import type { SqlConnection } from '../../sql-driver';

/** Every member account's USDT by sub-account (`cash`, `cash:frozen`, ...), summed in the database. */
export async function liabilities(c: SqlConnection, s: string): Promise<Map<string, bigint>> {
  const { rows } = await c.query<{ k: string; n: string }>(
    `SELECT CASE WHEN account LIKE '%:frozen' THEN split_part(account, ':', 3) || ':frozen' ` +
      `ELSE split_part(account, ':', 3) END AS k, sum(amount)::text AS n FROM ${s}.ledger_balances ` +
      `WHERE account LIKE 'user:%' AND asset = 'USDT' GROUP BY 1 ORDER BY 1`,
  );
  return new Map(rows.map((r) => [r.k, BigInt(r.n)]));
}

export interface LatestSnapshot {
  id: string;
  time: number;
  total: bigint;
  leafCount: number;
  root: string;
  demo: boolean;
}

/** The latest proof-of-reserves snapshot (engine/reserves/), or null before the first. */
export async function latestSnapshot(c: SqlConnection, s: string): Promise<LatestSnapshot | null> {
  const { rows } = await c.query<{ id: string; total: string; v: Record<string, unknown> }>(
    `SELECT id, total::text AS total, v FROM ${s}.reserve_snapshots ORDER BY at DESC, id DESC LIMIT 1`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    time: Math.floor(Number(row.v['time']) / 1000),
    total: BigInt(row.total),
    leafCount: Number(row.v['leafCount']),
    root: String(row.v['root']),
    demo: row.v['demo'] === true,
  };
}
