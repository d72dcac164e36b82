/**
 * The account statement (docs/SPEC.md §12): the member's deposits, withdrawals, internal transfers and
 * earnings in a date range, merged newest first, as CSV made on the device from its replica. Amounts are the
 * replica's exact decimal strings, signed (money in positive, out negative), never re-formatted or rounded.
 */
import { formatTime } from '../../lib/format';
import { rangeOf, type RecordFilter } from './filters';

export type StatementKind = 'deposit' | 'withdrawal' | 'transferIn' | 'transferOut' | 'earning';

export interface StatementRow {
  /** Unix seconds. */
  time: number;
  kind: StatementKind;
  /** Signed exact decimal string. */
  amount: string;
  fee: string;
  status: string;
  network: string;
  /** A transaction hash, a counterparty, or what an earning was for. */
  reference: string;
  id: string;
}

export interface StatementSources {
  deposits: readonly {
    id: string;
    amount: string;
    status: string;
    network: string;
    txid: string | null;
    createdAt: number;
  }[];
  withdrawals: readonly {
    id: string;
    amount: string;
    fee: string;
    status: string;
    network: string;
    txid: string | null;
    address: string;
    createdAt: number;
  }[];
  transfers: readonly {
    id: string;
    direction: 'in' | 'out';
    account: string;
    amount: string;
    status: string;
    createdAt: number;
  }[];
  profits: readonly { id: string; type: string; amount: string; time: number }[];
}

const negate = (amount: string) =>
  amount.startsWith('-') ? amount.slice(1) : amount === '0' ? '0' : `-${amount}`;

export function statementRows(
  sources: StatementSources,
  filter: Pick<RecordFilter, 'from' | 'to'>,
): StatementRow[] {
  const { since, until } = rangeOf(filter);
  const rows: StatementRow[] = [
    ...sources.deposits.map((d) => ({
      time: d.createdAt,
      kind: 'deposit' as const,
      amount: d.amount,
      fee: '0',
      status: d.status,
      network: d.network,
      reference: d.txid ?? '',
      id: d.id,
    })),
    ...sources.withdrawals.map((w) => ({
      time: w.createdAt,
      kind: 'withdrawal' as const,
      amount: negate(w.amount),
      fee: w.fee,
      status: w.status,
      network: w.network,
      reference: w.txid ?? w.address,
      id: w.id,
    })),
    ...sources.transfers.map((r) => ({
      time: r.createdAt,
      kind: r.direction === 'in' ? ('transferIn' as const) : ('transferOut' as const),
      amount: r.direction === 'in' ? r.amount : negate(r.amount),
      fee: '0',
      status: r.status,
      network: '',
      reference: r.account,
      id: r.id,
    })),
    ...sources.profits.map((p) => ({
      time: p.time,
      kind: 'earning' as const,
      amount: p.amount,
      fee: '0',
      status: 'success',
      network: '',
      reference: p.type,
      id: p.id,
    })),
  ];
  return rows
    .filter((r) => r.time * 1000 >= since && r.time * 1000 < until)
    .sort(
      (a, b) => b.time - a.time || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : Number(b.id) - Number(a.id)),
    );
}

/** One CSV cell: quoted when it must be; text that a spreadsheet would run as a formula is defused. */
function cell(value: string, numeric = false): string {
  const safe = !numeric && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export interface StatementLabels {
  headers: [string, string, string, string, string, string, string, string];
  kind: (kind: StatementKind) => string;
  status: (status: string) => string;
}

/** RFC 4180 CSV (CRLF), a header row then one row per entry. */
export function statementCsv(rows: readonly StatementRow[], labels: StatementLabels): string {
  const lines = [labels.headers.map((h) => cell(h)).join(',')];
  for (const r of rows)
    lines.push(
      [
        cell(formatTime(r.time)),
        cell(labels.kind(r.kind)),
        cell(r.amount, true),
        cell(r.fee, true),
        cell('USDT'),
        cell(labels.status(r.status)),
        cell(r.network),
        cell(r.reference),
      ].join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}
