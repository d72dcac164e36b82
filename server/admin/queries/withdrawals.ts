/** The withdrawal queue: records with their approvals, the contract's `sending` status, counts per status. */
import {
  WITHDRAWAL_STATUSES,
  type AdminList,
  type AdminWithdrawal,
  type AdminWithdrawalStatus,
  type Approval,
} from '../../../contract/admin/model';
import type { WithdrawalRow } from '../../../engine/server';
import { decodeValue, escapeText } from '../../sql-codec';
import type { SqlConnection } from '../../sql-driver';
import { seconds } from '../db';
import { approvalsNeeded, approvalsOf } from './approvals';
import { counted, listOf, micro, offset, Params, type Page, type RecordRow } from './sql';

/** The contract's status from the engine's: a pending withdrawal claimed for sending is `sending`. */
const WITHDRAWAL_STATUS_SQL = `CASE WHEN w.status = 'pending' AND w.v->>'sendingSince' IS NOT NULL THEN 'sending' ELSE w.status END`;

function withdrawalStatusWhere(status: AdminWithdrawalStatus): string {
  if (status === 'pending') return `w.status = 'pending' AND w.v->>'sendingSince' IS NULL`;
  if (status === 'sending') return `w.status = 'pending' AND w.v->>'sendingSince' IS NOT NULL`;
  return `w.status = '${status}'`;
}

/** A withdrawal as the engine stores it (its table's row, decoded from the SQL row's value). */
export type WithdrawalRecord = WithdrawalRow;

export function withdrawalView(
  w: WithdrawalRecord,
  username: string,
  approvals: Approval[],
  thresholdMicro: bigint,
): AdminWithdrawal {
  const sending = w.status === 'pending' && w.sendingSince !== undefined && w.sendingSince !== null;
  return {
    id: w.id,
    memberId: w.memberId,
    username,
    network: w.network,
    address: w.address,
    amount: micro(w.amount),
    fee: micro(w.fee),
    received: micro(w.received),
    status: sending ? 'sending' : w.status,
    createdAt: seconds(w.createdAt),
    finishedAt: w.finishedAt === null ? null : seconds(w.finishedAt),
    txHash: w.txid,
    sendingSince: sending && typeof w.sendingSince === 'number' ? seconds(w.sendingSince) : null,
    broadcast:
      sending && w.broadcast
        ? { txHash: w.broadcast.txHash, nonce: w.broadcast.nonce, at: seconds(w.broadcast.at) }
        : null,
    reason: w.reason,
    approvalsNeeded: approvalsNeeded(w.amount, thresholdMicro),
    approvals,
  };
}

/** One withdrawal with its member's username, or undefined. */
export async function withdrawalById(
  c: SqlConnection,
  s: string,
  id: string,
): Promise<{ record: WithdrawalRecord; username: string } | undefined> {
  const { rows } = await c.query<RecordRow>(
    `SELECT w.v, m.v->'username' AS username FROM ${s}.withdrawals w ` +
      `LEFT JOIN ${s}.members m ON m.id = w.member_id WHERE w.id = $1`,
    [escapeText(id)],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    record: decodeValue(row.v) as WithdrawalRecord,
    username: String(decodeValue(row.username) ?? ''),
  };
}

export async function withdrawalWithApprovals(
  c: SqlConnection,
  s: string,
  id: string,
  thresholdMicro: bigint,
): Promise<AdminWithdrawal | undefined> {
  const found = await withdrawalById(c, s, id);
  if (!found) return undefined;
  const approvals = (await approvalsOf(c, s, 'withdrawal', [id])).get(id) ?? [];
  return withdrawalView(found.record, found.username, approvals, thresholdMicro);
}

export async function listWithdrawals(
  c: SqlConnection,
  s: string,
  filter: Page & { status?: AdminWithdrawalStatus; q?: string },
  thresholdMicro: bigint,
): Promise<AdminList<AdminWithdrawal>> {
  const p = new Params();
  const from = `FROM ${s}.withdrawals w LEFT JOIN ${s}.members m ON m.id = w.member_id`;
  const where: string[] = [];
  if (filter.q) {
    const q = p.add(filter.q);
    where.push(
      `(w.id = ${q} OR w.member_id = ${q} OR m.username_key = lower(${q}) OR ` +
        `lower(w.v->>'address') = lower(${q}) OR lower(w.v->>'txid') = lower(${q}))`,
    );
  }
  const base = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const counts = await counted(
    c,
    `SELECT ${WITHDRAWAL_STATUS_SQL} AS k, count(*) AS n ${from} ${base} GROUP BY 1`,
    p.values,
    WITHDRAWAL_STATUSES,
  );
  if (filter.status) where.push(withdrawalStatusWhere(filter.status));
  const all = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const limit = p.add(filter.limit);
  const skip = p.add(offset(filter));
  const { rows } = await c.query<RecordRow>(
    `SELECT w.v, m.v->'username' AS username ${from} ${all} ` +
      `ORDER BY (w.v->>'createdAt')::numeric DESC, w.id DESC LIMIT ${limit} OFFSET ${skip}`,
    p.values,
  );
  const records = rows.map((r) => ({
    record: decodeValue(r.v) as WithdrawalRecord,
    username: String(decodeValue(r.username) ?? ''),
  }));
  const approvals = await approvalsOf(
    c,
    s,
    'withdrawal',
    records.map((r) => r.record.id),
  );
  const total = filter.status
    ? (counts[filter.status] ?? 0)
    : Object.values(counts).reduce((a, b) => a + b, 0);
  return listOf(
    records.map((r) =>
      withdrawalView(r.record, r.username, approvals.get(r.record.id) ?? [], thresholdMicro),
    ),
    filter,
    counts,
    total,
  );
}
