/**
 * The operators' read side: queues, members, the audit log and the solvency figures, read straight from the
 * engine's SQL tables (server/sql-schema.ts) with LIMIT/OFFSET and grouped counts, so a page costs the same
 * however long the queue is. Read-only: decisions go through engine.operations (routes.ts).
 */
import { decodeValue, escapeText, unescapeText } from '../sql-codec';
import type { SqlConnection } from '../sql-driver';
import type {
  AdminCert,
  AdminCertStatus,
  AdminDeposit,
  AdminDepositStatus,
  AdminList,
  AdminMember,
  AdminMemberDetail,
  AdminWithdrawal,
  AdminWithdrawalStatus,
  Approval,
  AuditEntry,
  AuditRole,
} from './contract';
import { seconds } from './db';
import { memberFigures, type BalanceFigure } from '../../engine/index';
import { effectiveVip, formatAmount, vipName, type FileRow, type WithdrawalRow } from '../../engine/server';

export interface Page {
  page: number;
  limit: number;
}

/** Positional parameters for one statement. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}

const micro = (value: unknown): string => formatAmount(BigInt(String(value ?? '0')));
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const likePrefix = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

async function counted(
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

function listOf<T>(list: T[], page: Page, counts: Record<string, number>, total: number): AdminList<T> {
  return { list, total, page: page.page, limit: page.limit, counts };
}

const offset = (page: Page) => (page.page - 1) * page.limit;

// ---------------------------------------------------------------------------------------------------------
// Member uploads (payment proofs, identity documents)

/** A member upload's relative URL as the engine hands it out (engine/accounts/uploads.ts). */
const MEMBER_UPLOAD_URL = /^\/uploads\/([\w-]{1,64})$/;

/**
 * The operator route of a member upload's URL (`/uploads/<id>` -> `/api/admin/uploads/<id>`), which the
 * console fetches with the operator's token; null for anything that is not an upload's URL, so the console
 * never sends its token elsewhere.
 */
export function operatorUploadUrl(url: string | null): string | null {
  const id = url === null ? undefined : MEMBER_UPLOAD_URL.exec(url)?.[1];
  return id === undefined ? null : `/api/admin/uploads/${id}`;
}

/** One member upload (the engine's `files` table, SQL table `uploads`), or undefined. */
export async function uploadById(c: SqlConnection, s: string, id: string): Promise<FileRow | undefined> {
  const { rows } = await c.query<{ v: unknown }>(`SELECT v FROM ${s}.uploads WHERE id = $1`, [
    escapeText(id),
  ]);
  const [row] = rows;
  return row ? (decodeValue(row.v) as FileRow) : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Withdrawals

export const WITHDRAWAL_STATUSES: readonly AdminWithdrawalStatus[] = [
  'pending',
  'sending',
  'success',
  'rejected',
];

/** The contract's status from the engine's: a pending withdrawal claimed for sending is `sending`. */
const WITHDRAWAL_STATUS_SQL = `CASE WHEN w.status = 'pending' AND w.v->>'sendingSince' IS NOT NULL THEN 'sending' ELSE w.status END`;

function withdrawalStatusWhere(status: AdminWithdrawalStatus): string {
  if (status === 'pending') return `w.status = 'pending' AND w.v->>'sendingSince' IS NULL`;
  if (status === 'sending') return `w.status = 'pending' AND w.v->>'sendingSince' IS NOT NULL`;
  return `w.status = '${status}'`;
}

interface WithdrawalDbRow {
  v: unknown;
  username: unknown;
}

/** A withdrawal as the engine stores it (its table's row, decoded from the SQL row's value). */
export type WithdrawalRecord = WithdrawalRow;

async function approvalsOf(c: SqlConnection, s: string, ids: string[]): Promise<Map<string, Approval[]>> {
  const out = new Map<string, Approval[]>();
  if (ids.length === 0) return out;
  const { rows } = await c.query<{
    withdrawal_id: string;
    operator_id: string;
    username: string;
    at: string;
  }>(
    `SELECT a.withdrawal_id, a.operator_id::text AS operator_id, o.username, a.at::text AS at ` +
      `FROM ${s}.withdrawal_approvals a JOIN ${s}.operators o ON o.id = a.operator_id ` +
      `WHERE a.withdrawal_id = ANY($1::text[]) ORDER BY a.at, a.operator_id`,
    [ids],
  );
  for (const r of rows) {
    const list = out.get(r.withdrawal_id) ?? [];
    list.push({ operatorId: r.operator_id, username: r.username, at: seconds(r.at) });
    out.set(r.withdrawal_id, list);
  }
  return out;
}

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
    approvalsNeeded: BigInt(w.amount) > thresholdMicro ? 2 : 1,
    approvals,
  };
}

/** One withdrawal with its member's username, or undefined. */
export async function withdrawalById(
  c: SqlConnection,
  s: string,
  id: string,
): Promise<{ record: WithdrawalRecord; username: string } | undefined> {
  const { rows } = await c.query<WithdrawalDbRow>(
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
  const approvals = (await approvalsOf(c, s, [id])).get(id) ?? [];
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
  const { rows } = await c.query<WithdrawalDbRow>(
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

// ---------------------------------------------------------------------------------------------------------
// Manual deposits

export const DEPOSIT_STATUSES: readonly AdminDepositStatus[] = ['pending', 'success', 'rejected'];

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

function depositView(d: DepositRecord, username: string): AdminDeposit {
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
  };
}

export async function depositById(
  c: SqlConnection,
  s: string,
  id: string,
): Promise<{ record: DepositRecord; view: AdminDeposit } | undefined> {
  const { rows } = await c.query<WithdrawalDbRow>(
    `SELECT d.v, m.v->'username' AS username FROM ${s}.deposits d ` +
      `LEFT JOIN ${s}.members m ON m.id = d.member_id WHERE d.id = $1`,
    [escapeText(id)],
  );
  const row = rows[0];
  if (!row) return undefined;
  const record = decodeValue(row.v) as DepositRecord;
  return { record, view: depositView(record, String(decodeValue(row.username) ?? '')) };
}

export async function listDeposits(
  c: SqlConnection,
  s: string,
  filter: Page & { status?: AdminDepositStatus; q?: string },
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
  const { rows } = await c.query<WithdrawalDbRow>(
    `SELECT d.v, m.v->'username' AS username ${from} WHERE ${where.join(' AND ')} ` +
      `ORDER BY (d.v->>'createdAt')::numeric DESC, d.id DESC LIMIT ${limit} OFFSET ${skip}`,
    p.values,
  );
  const total = filter.status
    ? (counts[filter.status] ?? 0)
    : Object.values(counts).reduce((a, b) => a + b, 0);
  return listOf(
    rows.map((r) => depositView(decodeValue(r.v) as DepositRecord, String(decodeValue(r.username) ?? ''))),
    filter,
    counts,
    total,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Identity checks

export const CERT_STATUSES: readonly AdminCertStatus[] = ['review', 'passed', 'rejected'];
const CERT_STATUS_SQL = `CASE WHEN c.v->>'status' = 'under review' THEN 'review' ELSE c.v->>'status' END`;

interface CertRecord {
  id: string;
  memberId: string;
  realName: string;
  idNumber: string;
  frontImage: string | null;
  backImage: string | null;
  status: 'under review' | 'passed' | 'rejected';
  createdAt: number;
  reason?: string | null;
}

function certView(r: CertRecord, username: string): AdminCert {
  return {
    id: r.id,
    memberId: r.memberId,
    username,
    name: r.realName,
    idNumber: r.idNumber,
    frontUrl: operatorUploadUrl(text(r.frontImage)),
    backUrl: operatorUploadUrl(text(r.backImage)),
    status: r.status === 'under review' ? 'review' : r.status,
    submittedAt: seconds(r.createdAt),
    reason: r.reason ?? null,
  };
}

export async function certById(c: SqlConnection, s: string, id: string): Promise<AdminCert | undefined> {
  const { rows } = await c.query<WithdrawalDbRow>(
    `SELECT c.v, m.v->'username' AS username FROM ${s}.member_certs c ` +
      `LEFT JOIN ${s}.members m ON m.id = c.member_id WHERE c.id = $1`,
    [escapeText(id)],
  );
  const row = rows[0];
  return row
    ? certView(decodeValue(row.v) as CertRecord, String(decodeValue(row.username) ?? ''))
    : undefined;
}

export async function listCerts(
  c: SqlConnection,
  s: string,
  filter: Page & { status?: AdminCertStatus; q?: string },
): Promise<AdminList<AdminCert>> {
  const p = new Params();
  const from = `FROM ${s}.member_certs c LEFT JOIN ${s}.members m ON m.id = c.member_id`;
  const where: string[] = [];
  if (filter.q) {
    const q = p.add(filter.q);
    where.push(`(c.id = ${q} OR c.member_id = ${q} OR m.username_key = lower(${q}))`);
  }
  const base = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const counts = await counted(
    c,
    `SELECT ${CERT_STATUS_SQL} AS k, count(*) AS n ${from} ${base} GROUP BY 1`,
    p.values,
    CERT_STATUSES,
  );
  if (filter.status) where.push(`${CERT_STATUS_SQL} = ${p.add(filter.status)}`);
  const all = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const limit = p.add(filter.limit);
  const skip = p.add(offset(filter));
  const { rows } = await c.query<WithdrawalDbRow>(
    `SELECT c.v, m.v->'username' AS username ${from} ${all} ` +
      `ORDER BY (c.v->>'createdAt')::numeric DESC, c.id DESC LIMIT ${limit} OFFSET ${skip}`,
    p.values,
  );
  const total = filter.status
    ? (counts[filter.status] ?? 0)
    : Object.values(counts).reduce((a, b) => a + b, 0);
  return listOf(
    rows.map((r) => certView(decodeValue(r.v) as CertRecord, String(decodeValue(r.username) ?? ''))),
    filter,
    counts,
    total,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Members

interface MemberRecord {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  vip: number;
  vipExpiresAt: number | null;
  createdAt: number;
  status: 'active' | 'disabled';
}

/** `user:<id>:<sub>` or `user:<id>:<sub>:frozen` as the figures' shape; other accounts are skipped. */
function figureOf(account: string, asset: string, amount: string): BalanceFigure | undefined {
  const parts = account.split(':');
  if (parts[0] !== 'user' || !parts[2]) return undefined;
  return { sub: parts[2], frozen: parts[3] === 'frozen', asset, amount: BigInt(amount) };
}

async function balancesOf(
  c: SqlConnection,
  s: string,
  ids: string[],
): Promise<Map<string, Array<{ account: string; asset: string; amount: string }>>> {
  const out = new Map<string, Array<{ account: string; asset: string; amount: string }>>();
  if (ids.length === 0) return out;
  const { rows } = await c.query<{ owner: string; account: string; asset: string; amount: string }>(
    `SELECT owner, account, asset, amount::text AS amount FROM ${s}.ledger_balances ` +
      `WHERE owner = ANY($1::text[]) ORDER BY account, asset`,
    [ids.map(escapeText)],
  );
  for (const r of rows) {
    const owner = unescapeText(r.owner);
    const list = out.get(owner) ?? [];
    list.push({ account: r.account, asset: r.asset, amount: r.amount });
    out.set(owner, list);
  }
  return out;
}

function memberView(
  m: MemberRecord,
  balances: Array<{ account: string; asset: string; amount: string }>,
  nowMs: number,
): AdminMember {
  const figures = memberFigures(
    balances.flatMap((b) => {
      const f = figureOf(b.account, b.asset, b.amount);
      return f ? [f] : [];
    }),
  );
  return {
    id: m.id,
    username: m.username,
    email: m.email,
    phone: m.phone,
    vip: vipName(effectiveVip(m, nowMs)),
    createdAt: seconds(m.createdAt),
    locked: m.status !== 'active',
    balance: figures.balance,
    totalAssets: figures.totalAssets,
  };
}

const MEMBER_STATUS_SQL = `CASE WHEN m.v->>'status' = 'active' THEN 'active' ELSE 'locked' END`;

export async function listMembers(
  c: SqlConnection,
  s: string,
  filter: Page & { q?: string },
  nowMs: number,
): Promise<AdminList<AdminMember>> {
  const p = new Params();
  const where: string[] = [];
  if (filter.q) {
    const q = p.add(filter.q);
    where.push(
      `(m.id = ${q} OR m.username_key LIKE ${p.add(likePrefix(filter.q))} OR ` +
        `lower(m.v->>'email') = lower(${q}) OR m.v->>'phone' = ${q})`,
    );
  }
  const all = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const counts = await counted(
    c,
    `SELECT ${MEMBER_STATUS_SQL} AS k, count(*) AS n FROM ${s}.members m ${all} GROUP BY 1`,
    p.values,
    ['active', 'locked'],
  );
  const limit = p.add(filter.limit);
  const skip = p.add(offset(filter));
  const { rows } = await c.query<{ v: unknown }>(
    `SELECT m.v FROM ${s}.members m ${all} ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit} OFFSET ${skip}`,
    p.values,
  );
  const members = rows.map((r) => decodeValue(r.v) as MemberRecord);
  const balances = await balancesOf(
    c,
    s,
    members.map((m) => m.id),
  );
  return listOf(
    members.map((m) => memberView(m, balances.get(m.id) ?? [], nowMs)),
    filter,
    counts,
    (counts['active'] ?? 0) + (counts['locked'] ?? 0),
  );
}

export async function memberById(
  c: SqlConnection,
  s: string,
  id: string,
  nowMs: number,
): Promise<AdminMember | undefined> {
  const { rows } = await c.query<{ v: unknown }>(`SELECT v FROM ${s}.members WHERE id = $1`, [
    escapeText(id),
  ]);
  const row = rows[0];
  if (!row) return undefined;
  const member = decodeValue(row.v) as MemberRecord;
  return memberView(member, (await balancesOf(c, s, [member.id])).get(member.id) ?? [], nowMs);
}

interface HoldRecord {
  id: string;
  account: string;
  amount: string;
  reason: string;
  ref: string;
  createdAt: number;
}

interface JournalRecord {
  id: string;
  at: number;
  kind: string;
  ref: string;
  legs: Array<{ account: string; asset: string; amount: string }>;
}

export async function memberDetail(
  c: SqlConnection,
  s: string,
  id: string,
  nowMs: number,
): Promise<AdminMemberDetail | undefined> {
  const member = await memberById(c, s, id, nowMs);
  if (!member) return undefined;
  const balances = (await balancesOf(c, s, [id])).get(id) ?? [];
  const holds = await c.query<{ v: unknown }>(
    `SELECT v FROM ${s}.ledger_holds WHERE member_id = $1 AND status = 'held' ` +
      `ORDER BY (v->>'createdAt')::numeric DESC, id DESC LIMIT 100`,
    [escapeText(id)],
  );
  const ledger = await c.query<{ v: unknown }>(
    `SELECT v FROM ${s}.ledger_entries WHERE ix @> ARRAY[$1::text] ORDER BY at DESC, id DESC LIMIT 100`,
    [escapeText(`member=${id}`)],
  );
  return {
    member,
    balances: balances.map((b) => ({ account: b.account, asset: b.asset, amount: micro(b.amount) })),
    holds: holds.rows.map((r) => {
      const h = decodeValue(r.v) as HoldRecord;
      return {
        id: h.id,
        account: h.account,
        amount: micro(h.amount),
        kind: h.reason,
        ref: h.ref,
        createdAt: seconds(h.createdAt),
      };
    }),
    ledger: ledger.rows.map((r) => {
      const e = decodeValue(r.v) as JournalRecord;
      return {
        id: e.id,
        kind: e.kind,
        ref: e.ref,
        at: seconds(e.at),
        legs: e.legs.map((l) => ({ account: l.account, amount: micro(l.amount) })),
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Audit log

interface AuditDbRow {
  id: string;
  at: string;
  operator_id: string | null;
  username: string;
  role: AuditRole;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  ip: string;
}

export async function listAudit(
  c: SqlConnection,
  s: string,
  filter: Page & { operatorId?: string; action?: string },
): Promise<AdminList<AuditEntry>> {
  const p = new Params();
  const where: string[] = [];
  if (filter.operatorId) where.push(`a.operator_id = ${p.add(filter.operatorId)}::bigint`);
  const base = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const counts = await counted(
    c,
    `SELECT a.action AS k, count(*) AS n FROM ${s}.audit_log a ${base} GROUP BY 1`,
    p.values,
    [],
  );
  if (filter.action) where.push(`a.action = ${p.add(filter.action)}`);
  const all = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const limit = p.add(filter.limit);
  const skip = p.add(offset(filter));
  const { rows } = await c.query<AuditDbRow>(
    `SELECT a.id::text AS id, a.at::text AS at, a.operator_id::text AS operator_id, a.username, a.role, ` +
      `a.action, a.target, a.before, a.after, a.reason, a.ip FROM ${s}.audit_log a ${all} ` +
      `ORDER BY a.id DESC LIMIT ${limit} OFFSET ${skip}`,
    p.values,
  );
  const total = filter.action
    ? (counts[filter.action] ?? 0)
    : Object.values(counts).reduce((a, b) => a + b, 0);
  return listOf(
    rows.map((r) => ({
      id: r.id,
      at: seconds(r.at),
      operatorId: r.operator_id,
      username: r.username,
      role: r.role,
      action: r.action,
      target: r.target,
      before: r.before,
      after: r.after,
      reason: r.reason,
      ip: r.ip,
    })),
    filter,
    counts,
    total,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Solvency

/** Every member account's USDT by sub-account (`cash`, `cash:frozen`, ...), summed in the database. */
export async function liabilities(c: SqlConnection, s: string): Promise<Map<string, bigint>> {
  const { rows } = await c.query<{ k: string; n: string }>(
    `SELECT CASE WHEN account LIKE '%:frozen' THEN split_part(account, ':', 3) || ':frozen' ` +
      `ELSE split_part(account, ':', 3) END AS k, sum(amount)::text AS n FROM ${s}.ledger_balances ` +
      `WHERE account LIKE 'user:%' AND asset = 'USDT' GROUP BY 1 ORDER BY 1`,
  );
  return new Map(rows.map((r) => [r.k, BigInt(r.n)]));
}
