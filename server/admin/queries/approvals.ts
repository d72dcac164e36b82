/**
 * Maker-checker on the read side (docs/OPERATIONS.md "Maker-checker"): who approved which deposits or
 * withdrawals, and how many approvals an amount needs.
 */
import type { Approval } from '../../../contract/admin/model';
import type { SqlConnection } from '../../sql-driver';
import { seconds } from '../db';

/**
 * The operators' approvals of deposits or withdrawals (its `deposit_approvals` or
 * `withdrawal_approvals` table), by record id, oldest first.
 */
export async function approvalsOf(
  c: SqlConnection,
  s: string,
  kind: 'deposit' | 'withdrawal',
  ids: string[],
): Promise<Map<string, Approval[]>> {
  const out = new Map<string, Approval[]>();
  if (ids.length === 0) return out;
  const { rows } = await c.query<{ record_id: string; operator_id: string; username: string; at: string }>(
    `SELECT a.${kind}_id AS record_id, a.operator_id::text AS operator_id, o.username, a.at::text AS at ` +
      `FROM ${s}.${kind}_approvals a JOIN ${s}.operators o ON o.id = a.operator_id ` +
      `WHERE a.${kind}_id = ANY($1::text[]) ORDER BY a.at, a.operator_id`,
    [ids],
  );
  for (const r of rows) {
    const list = out.get(r.record_id) ?? [];
    list.push({ operatorId: r.operator_id, username: r.username, at: seconds(r.at) });
    out.set(r.record_id, list);
  }
  return out;
}

/** An amount (micro-USDT) strictly above the threshold needs two operators' approvals. */
export const approvalsNeeded = (amount: string, thresholdMicro: bigint): 1 | 2 =>
  BigInt(amount) > thresholdMicro ? 2 : 1;
