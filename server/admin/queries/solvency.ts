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
