/** The manual deposits queue (payment proofs and reported transaction hashes). */
import {
  DEPOSIT_STATUSES,
  type AdminDeposit,
  type Approval,
  type AdminDepositStatus,
  type AdminList,
} from '../../../contract/admin/model';
import { decodeValue, escapeText } from '../../sql-codec';
import type { SqlConnection } from '../../sql-driver';
import { seconds } from '../db';
import { approvalsNeeded, approvalsOf } from './approvals';
import { counted, listOf, micro, offset, Params, type Page, type RecordRow } from './sql';
import { operatorUploadUrl } from './uploads';

interface DepositRecord {
  id: string;
  memberId: string;
  network: string;
  amount: string;
  source: string;
  status: AdminDepositStatus;
  txid: string | null;
  proof: string | null;
  reason?: string | null;
  createdAt: number;
}

function depositView(
  d: DepositRecord,
  username: string,
  approvals: Approval[],
  thresholdMicro: bigint,
): AdminDeposit {
  return {
    id: d.id,
    memberId: d.memberId,
    username,
    network: d.network,
    amount: micro(d.amount),
    txid: d.txid,
    proofUrl: operatorUploadUrl(d.proof),
    status: d.status,
    createdAt: seconds(d.createdAt),
    reason: d.reason ?? null,
    approvalsNeeded: approvalsNeeded(d.amount, thresholdMicro),
    approvals,
  };
}

export async function depositById(
  c: SqlConnection,
  s: string,
  id: string,
  thresholdMicro: bigint,
): Promise<{ record: DepositRecord; view: AdminDeposit } | undefined> {
  const { rows } = await c.query<RecordRow>(
    `SELECT d.v, m.v->'username' AS username FROM ${s}.deposits d ` +
      `LEFT JOIN ${s}.members m ON m.id = d.member_id WHERE d.id = $1`,
    [escapeText(id)],
  );
  const row = rows[0];
  if (!row) return undefined;
  const record = decodeValue(row.v) as DepositRecord;
  const approvals = (await approvalsOf(c, s, 'deposit', [id])).get(id) ?? [];
  return {
    record,
    view: depositView(record, String(decodeValue(row.username) ?? ''), approvals, thresholdMicro),
  };
}

export async function listDeposits(
  c: SqlConnection,
  s: string,
  filter: Page & { status?: AdminDepositStatus; q?: string },
  thresholdMicro: bigint,
): Promise<AdminList<AdminDeposit>> {
  const p = new Params();
  const from = `FROM ${s}.deposits d LEFT JOIN ${s}.members m ON m.id = d.member_id`;
  const where = [`d.v->>'source' = 'manual'`];
  if (filter.q) {
    const q = p.add(filter.q);
    where.push(
      `(d.id = ${q} OR d.member_id = ${q} OR m.username_key = lower(${q}) OR lower(d.v->>'txid') = lower(${q}))`,
    );
  }
  const counts = await counted(
    c,
    `SELECT d.status AS k, count(*) AS n ${from} WHERE ${where.join(' AND ')} GROUP BY 1`,
    p.values,
    DEPOSIT_STATUSES,
  );
  if (filter.status) where.push(`d.status = ${p.add(filter.status)}`);
  const limit = p.add(filter.limit);
  const skip = p.add(offset(filter));
  const { rows } = await c.query<RecordRow>(
    `SELECT d.v, m.v->'username' AS username ${from} WHERE ${where.join(' AND ')} ` +
      `ORDER BY (d.v->>'createdAt')::numeric DESC, d.id DESC LIMIT ${limit} OFFSET ${skip}`,
    p.values,
  );
  const total = filter.status
    ? (counts[filter.status] ?? 0)
    : Object.values(counts).reduce((a, b) => a + b, 0);
  const records = rows.map((r) => ({
    record: decodeValue(r.v) as DepositRecord,
    username: String(decodeValue(r.username) ?? ''),
  }));
  const approvals = await approvalsOf(
    c,
    s,
    'deposit',
    records.map((r) => r.record.id),
  );
  return listOf(
    records.map((r) => depositView(r.record, r.username, approvals.get(r.record.id) ?? [], thresholdMicro)),
    filter,
    counts,
    total,
  );
}
