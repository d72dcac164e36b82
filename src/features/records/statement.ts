/**
 * The account statement (docs/SPEC.md §12): the member's deposits, withdrawals, internal transfers and
 * earnings (from their records, with status, network and hash), and from the replicated ledger lines a
 * contract's realised PnL, liquidations, funding, trading fees and moves between the member's own accounts
 * (one row per sub-account and asset an entry touched), in a date range, merged newest first, as CSV made on
 * the device from its replica. Amounts are the replica's exact decimal strings, signed (money in positive,
 * out negative), never re-formatted or rounded.
 */
import type { LedgerLinesView } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { rangeOf, type RecordFilter } from './filters';

export type StatementKind =
  | 'deposit'
  | 'withdrawal'
  | 'transferIn'
  | 'transferOut'
  | 'earning'
  | 'realisedPnl'
  | 'liquidation'
  | 'insuranceClearance'
  | 'funding'
  | 'fee'
  | 'moveIn'
  | 'moveOut';

/** The ledger entry kinds of the statement (engine/ledger/lines.ts STATEMENT_KINDS) and their rows' kind. */
const LEDGER_KINDS: Readonly<Record<string, StatementKind | 'move'>> = {
  'contract:pnl': 'realisedPnl',
  'contract:liquidation': 'liquidation',
  'insurance:clearance': 'insuranceClearance',
  'contract:funding': 'funding',
  'trade:fee': 'fee',
  'account:transfer': 'move',
};

export interface StatementRow {
  /** Unix seconds. */
  time: number;
  kind: StatementKind;
  /** The member's sub-account the amount went into or out of (cash, fund, contract, options, financial). */
  account: string;
  /** Signed exact decimal string. */
  amount: string;
  /** The amount's asset (USDT, or a coin). */
  asset: string;
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
  /** The synced `ledgerLines` rows (absent on a device that has not pulled them yet). */
  ledgerLines?: readonly LedgerLinesView[];
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
      account: 'cash',
      amount: d.amount,
      asset: 'USDT',
      fee: '0',
      status: d.status,
      network: d.network,
      reference: d.txid ?? '',
      id: d.id,
    })),
    ...sources.withdrawals.map((w) => ({
      time: w.createdAt,
      kind: 'withdrawal' as const,
      account: 'cash',
      amount: negate(w.amount),
      asset: 'USDT',
      fee: w.fee,
      status: w.status,
      network: w.network,
      reference: w.txid ?? w.address,
      id: w.id,
    })),
    ...sources.transfers.map((r) => ({
      time: r.createdAt,
      kind: r.direction === 'in' ? ('transferIn' as const) : ('transferOut' as const),
      account: 'cash',
      amount: r.direction === 'in' ? r.amount : negate(r.amount),
      asset: 'USDT',
      fee: '0',
      status: r.status,
      network: '',
      reference: r.account,
      id: r.id,
    })),
    ...sources.profits.map((p) => ({
      time: p.time,
      kind: 'earning' as const,
      account: 'cash',
      amount: p.amount,
      asset: 'USDT',
      fee: '0',
      status: 'success',
      network: '',
      reference: p.type,
      id: p.id,
    })),
    ...(sources.ledgerLines ?? []).flatMap((entry) => {
      const kind = LEDGER_KINDS[entry.kind];
      if (!kind) return [];
      return entry.lines.map((line): StatementRow => ({
        time: entry.time,
        kind: kind === 'move' ? (line.amount.startsWith('-') ? 'moveOut' : 'moveIn') : kind,
        account: line.account,
        amount: line.amount,
        asset: line.asset,
        fee: '0',
        status: 'success',
        network: '',
        reference: entry.ref,
        id: entry.id,
      }));
    }),
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
  /** Time, type, amount, fee, currency, status, network, reference, account (last: columns only added). */
  headers: [string, string, string, string, string, string, string, string, string];
  kind: (kind: StatementKind) => string;
  account: (account: string) => string;
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
        cell(r.asset),
        cell(labels.status(r.status)),
        cell(r.network),
        cell(r.reference),
        cell(labels.account(r.account)),
      ].join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}
