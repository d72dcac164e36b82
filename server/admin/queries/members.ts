/** Members: the list, one member with balances, holds and ledger entries. */
import type { AdminList, AdminMember, AdminMemberDetail } from '../../../contract/admin/model';
import { memberFigures, type BalanceFigure } from '../../../engine/index';
import { effectiveVip, vipName } from '../../../engine/server';
import { decodeValue, escapeText, unescapeText } from '../../sql-codec';
import type { SqlConnection } from '../../sql-driver';
import { seconds } from '../db';
import { counted, likePrefix, listOf, micro, offset, Params, type Page } from './sql';

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
