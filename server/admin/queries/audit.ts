/** The audit log, newest first, filtered by operator and action. */
import type { AdminList, AuditEntry, AuditRole } from '../../../contract/admin/model';
import type { SqlConnection } from '../../sql-driver';
import { seconds } from '../db';
import { counted, listOf, offset, Params, type Page } from './sql';

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
