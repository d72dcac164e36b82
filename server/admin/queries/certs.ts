/** The identity checks queue. */
import {
  CERT_STATUSES,
  type AdminCert,
  type AdminCertStatus,
  type AdminList,
} from '../../../contract/admin/model';
import { decodeValue, escapeText } from '../../sql-codec';
import type { SqlConnection } from '../../sql-driver';
import { seconds } from '../db';
import { counted, listOf, offset, Params, text, type Page, type RecordRow } from './sql';
import { operatorUploadUrl } from './uploads';

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
  const { rows } = await c.query<RecordRow>(
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
  const { rows } = await c.query<RecordRow>(
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
