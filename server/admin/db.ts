/**
 * The back office's SQL: transactions on the store's driver, the operator tables of migration 0005 and the
 * append-only audit log. Nothing here writes an engine table: money and member records change only through
 * engine.operations (engine/operations.ts).
 */
import type { Operator, OperatorRole } from '../../contract/admin/model';
import { parseAmountText } from '../../engine/index';
import type { SqlConnection, SqlDriver } from '../sql-driver';

/** An answer other than success: the envelope code (contract.ts "Codes") and a clear message. */
export class AdminError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

/**
 * One transaction on one connection. On PGlite the driver hands out its single connection to one holder at
 * a time, so `work` must never call the engine (whose units of work need that connection too).
 */
export async function inTransaction<T>(
  driver: SqlDriver,
  work: (c: SqlConnection) => Promise<T>,
): Promise<T> {
  const c = await driver.connect();
  let broken = false;
  try {
    await c.query('BEGIN');
    const result = await work(c);
    await c.query('COMMIT');
    return result;
  } catch (error) {
    await c.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    c.release(broken);
  }
}

export interface OperatorRow {
  id: string;
  username: string;
  password_hash: string;
  role: OperatorRole;
  disabled: boolean;
  totp_secret: string;
  totp_last_step: string | null;
  failed_logins: number;
  locked_until: string | null;
  created_at: string;
  last_login_at: string | null;
}

/** Columns as text, so PostgreSQL and PGlite answer the same JS types (bigint would differ). */
export const OPERATOR_COLUMNS =
  'id::text AS id, username, password_hash, role, disabled, totp_secret, totp_last_step::text AS totp_last_step, ' +
  'failed_logins, locked_until::text AS locked_until, created_at::text AS created_at, ' +
  'last_login_at::text AS last_login_at';

export const seconds = (ms: number | string): number => Math.floor(Number(ms) / 1000);

export function operatorView(row: OperatorRow): Operator {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    disabled: row.disabled,
    createdAt: seconds(row.created_at),
    lastLoginAt: row.last_login_at === null ? null : seconds(row.last_login_at),
  };
}

export async function operatorById(
  c: SqlConnection,
  s: string,
  id: string,
): Promise<OperatorRow | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const { rows } = await c.query<OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM ${s}.operators WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/**
 * The actor of the server's own decisions (the reconciler of uncertain broadcasts): no operator id, username
 * and role `system` (migration 0006 allows it on audit_log, and only it).
 */
export const SYSTEM_ACTOR = { id: null, username: 'system', role: 'system' } as const;
export type SystemActor = typeof SYSTEM_ACTOR;

export interface AuditRecord {
  at: number;
  /** The operator who acted (username and role at the time), or the system actor. */
  operator: Pick<OperatorRow, 'id' | 'username' | 'role'> | SystemActor;
  /** e.g. withdrawal.approve (contract.ts AuditEntry). */
  action: string;
  /** e.g. withdrawal:123. */
  target: string;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  ip: string;
}

/** Appends one audit row (the table refuses UPDATE and DELETE: migration 0005). */
export async function audit(c: SqlConnection, s: string, record: AuditRecord): Promise<void> {
  await c.query(
    `INSERT INTO ${s}.audit_log (at, operator_id, username, role, action, target, before, after, reason, ip) ` +
      `VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10)`,
    [
      Math.floor(record.at),
      record.operator.id,
      record.operator.username,
      record.operator.role,
      record.action,
      record.target,
      record.before === undefined ? null : JSON.stringify(record.before),
      record.after === undefined ? null : JSON.stringify(record.after),
      record.reason ?? null,
      record.ip,
    ],
  );
}

/**
 * An operator decision's audit row as a commit note (engine/store/port.ts CommitNote): passed to the
 * engine.operations call that takes the decision, written by the SQL store in the decision's own transaction
 * (writeAuditNote, registered in server/app.ts), so a decision is never committed without its audit row.
 * `approval`: the withdrawal approval that sent it, recorded in the same transaction (an approval the same
 * operator already gave is kept as it is).
 */
export interface AuditNote {
  readonly kind: typeof AUDIT_NOTE;
  readonly record: AuditRecord;
  readonly approval?: { withdrawalId: string; operatorId: string; at: number };
  /** A manual deposit's credit by its checker (or its only operator), recorded with the credit. */
  readonly depositApproval?: { depositId: string; operatorId: string; at: number };
}

export const AUDIT_NOTE = 'audit';

export function auditNote(record: AuditRecord, approval?: AuditNote['approval']): AuditNote {
  return approval ? { kind: AUDIT_NOTE, record, approval } : { kind: AUDIT_NOTE, record };
}

export function depositAuditNote(
  record: AuditRecord,
  depositApproval: AuditNote['depositApproval'],
): AuditNote {
  return { kind: AUDIT_NOTE, record, depositApproval };
}

/** The SQL store's writer of audit notes (SqlStore.writeNotesWith), inside the decision's transaction. */
export async function writeAuditNote(c: SqlConnection, s: string, note: AuditNote): Promise<void> {
  if (note.approval)
    await c.query(
      `INSERT INTO ${s}.withdrawal_approvals (withdrawal_id, operator_id, at) VALUES ($1, $2, $3) ` +
        `ON CONFLICT (withdrawal_id, operator_id) DO NOTHING`,
      [note.approval.withdrawalId, note.approval.operatorId, Math.floor(note.approval.at)],
    );
  if (note.depositApproval)
    await c.query(
      `INSERT INTO ${s}.deposit_approvals (deposit_id, operator_id, at) VALUES ($1, $2, $3) ` +
        `ON CONFLICT (deposit_id, operator_id) DO NOTHING`,
      [note.depositApproval.depositId, note.depositApproval.operatorId, Math.floor(note.depositApproval.at)],
    );
  await audit(c, s, note.record);
}

export const THRESHOLD_KEY = 'makerCheckerThreshold';
/** Withdrawals above 10,000 USDT need two approvals until an admin sets another threshold. */
export const THRESHOLD_DEFAULT = '10000';

export async function setting(c: SqlConnection, s: string, key: string, fallback: string): Promise<string> {
  const { rows } = await c.query<{ value: string }>(`SELECT value FROM ${s}.admin_settings WHERE key = $1`, [
    key,
  ]);
  return rows[0]?.value ?? fallback;
}

/** The maker-checker threshold in micro-USDT: withdrawals strictly above it need two approvals. */
export async function makerCheckerThreshold(c: SqlConnection, s: string): Promise<bigint> {
  return parseAmountText(await setting(c, s, THRESHOLD_KEY, THRESHOLD_DEFAULT)) ?? 0n;
}

/** A unique key already taken (another operator with the username, the same approval twice). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}
