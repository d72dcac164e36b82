/** The statement's rows and CSV, and the records' date and status filters (docs/SPEC.md §12). */
import { describe, expect, it } from 'vitest';
import { parseAmountText } from '../../../engine/index';
import { filterRecords, rangeOf, NO_FILTER } from './filters';
import { statementCsv, statementRows, type StatementSources } from './statement';

const at = (day: string, hour = 12) =>
  new Date(`${day}T${String(hour).padStart(2, '0')}:00:00`).getTime() / 1000;

const sources: StatementSources = {
  deposits: [
    {
      id: '1',
      amount: '1000.123456',
      status: 'success',
      network: 'TRC20',
      txid: 'ab'.repeat(32),
      createdAt: at('2026-11-01'),
    },
    { id: '2', amount: '5', status: 'pending', network: 'ERC20', txid: null, createdAt: at('2026-11-20') },
  ],
  withdrawals: [
    {
      id: '3',
      amount: '50',
      fee: '1',
      status: 'success',
      network: 'TRC20',
      txid: 'cd'.repeat(32),
      address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
      createdAt: at('2026-11-10'),
    },
  ],
  transfers: [
    {
      id: '4',
      direction: 'out',
      account: 'bob',
      amount: '0.000001',
      status: 'success',
      createdAt: at('2026-11-10', 13),
    },
    {
      id: '5',
      direction: 'in',
      account: '=cmd',
      amount: '2',
      status: 'success',
      createdAt: at('2026-11-30'),
    },
  ],
  profits: [{ id: '6', type: 'finance', amount: '0.136986', time: at('2026-11-15') }],
  // The replicated ledger lines (engine/ledger/lines.ts): a move, two fees, a funding payment received, a
  // realised PnL, a liquidation and its remainder to the insurance fund.
  ledgerLines: [
    {
      id: '40',
      kind: 'account:transfer',
      ref: 'account-transfer:1',
      time: at('2026-11-12', 9),
      lines: [
        { account: 'cash', asset: 'USDT', amount: '-1000.5' },
        { account: 'contract', asset: 'USDT', amount: '1000.5' },
      ],
    },
    {
      id: '41',
      kind: 'trade:fee',
      ref: 'order:7',
      time: at('2026-11-12', 10),
      lines: [{ account: 'contract', asset: 'USDT', amount: '-0.47501' }],
    },
    {
      id: '42',
      kind: 'contract:funding',
      ref: 'funding:3',
      time: at('2026-11-12', 16),
      lines: [{ account: 'contract', asset: 'USDT', amount: '0.009501' }],
    },
    {
      id: '43',
      kind: 'contract:pnl',
      ref: 'position:5',
      time: at('2026-11-13', 8),
      lines: [{ account: 'contract', asset: 'USDT', amount: '12.345678' }],
    },
    {
      id: '44',
      kind: 'trade:fee',
      ref: 'order:8',
      time: at('2026-11-13', 8),
      lines: [{ account: 'contract', asset: 'USDT', amount: '-0.481183' }],
    },
    {
      id: '45',
      kind: 'contract:liquidation',
      ref: 'position:6',
      time: at('2026-11-14', 8),
      lines: [{ account: 'contract', asset: 'USDT', amount: '-48.9' }],
    },
    {
      id: '46',
      kind: 'insurance:clearance',
      ref: 'position:6',
      time: at('2026-11-14', 8),
      lines: [{ account: 'contract', asset: 'USDT', amount: '-0.1' }],
    },
    // A kind the statement does not list (a device that kept an older row) is left out.
    {
      id: '47',
      kind: 'hold:order',
      ref: 'order:9',
      time: at('2026-11-14', 9),
      lines: [{ account: 'cash', asset: 'USDT', amount: '-1' }],
    },
  ],
};

const KIND_LABELS = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  transferIn: 'In',
  transferOut: 'Out',
  earning: 'Earnings, finance',
  realisedPnl: 'Realised PnL',
  liquidation: 'Liquidation',
  insuranceClearance: 'To insurance fund',
  funding: 'Funding',
  fee: 'Trading fee',
  moveIn: 'Moved in',
  moveOut: 'Moved out',
} as const;

const HEADERS: [string, string, string, string, string, string, string, string, string] = [
  'Time',
  'Type',
  'Amount',
  'Fee',
  'Currency',
  'Status',
  'Network',
  'Reference',
  'Account',
];

describe('records filters', () => {
  it('keeps whole local days, both ends included, and one status', () => {
    const { since, until } = rangeOf({ from: '2026-11-10', to: '2026-11-10' });
    expect(until - since).toBe(24 * 3_600_000);
    const rows = sources.deposits.map((d) => ({ ...d }));
    expect(filterRecords(rows, NO_FILTER).map((r) => r.id)).toEqual(['1', '2']);
    expect(filterRecords(rows, { from: '2026-11-02', to: '', status: 'all' }).map((r) => r.id)).toEqual([
      '2',
    ]);
    expect(filterRecords(rows, { from: '', to: '2026-11-01', status: 'all' }).map((r) => r.id)).toEqual([
      '1',
    ]);
    expect(
      filterRecords(rows, { ...NO_FILTER, status: 'pending' }, (r) => r.status).map((r) => r.id),
    ).toEqual(['2']);
  });
});

describe('statement', () => {
  it('merges the range newest first with signed exact amounts, one row per ledger line, and writes RFC 4180 CSV', () => {
    const rows = statementRows(sources, { from: '2026-11-01', to: '2026-11-20' });
    expect(rows.map((r) => [r.kind, r.account, r.amount])).toEqual([
      ['deposit', 'cash', '5'],
      ['earning', 'cash', '0.136986'],
      ['insuranceClearance', 'contract', '-0.1'],
      ['liquidation', 'contract', '-48.9'],
      ['fee', 'contract', '-0.481183'],
      ['realisedPnl', 'contract', '12.345678'],
      ['funding', 'contract', '0.009501'],
      ['fee', 'contract', '-0.47501'],
      ['moveIn', 'contract', '1000.5'],
      ['moveOut', 'cash', '-1000.5'],
      ['transferOut', 'cash', '-0.000001'],
      ['withdrawal', 'cash', '-50'],
      ['deposit', 'cash', '1000.123456'],
    ]);
    // Exact sums: the contract rows add up to 1,000.5 - 0.47501 + 0.009501 + 12.345678 - 0.481183 - 48.9 - 0.1.
    const contract = rows.filter((r) => r.account === 'contract').map((r) => r.amount);
    const micro = (a: string) =>
      a.startsWith('-') ? -(parseAmountText(a.slice(1)) ?? 0n) : (parseAmountText(a) ?? 0n);
    expect(contract.reduce((s, a) => s + micro(a), 0n)).toBe(962_898_986n);
    const csv = statementCsv(rows, {
      headers: HEADERS,
      kind: (k) => KIND_LABELS[k],
      account: (a) => ({ cash: 'Cash', contract: 'Contracts' })[a] ?? a,
      status: (s) => s,
    });
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Time,Type,Amount,Fee,Currency,Status,Network,Reference,Account');
    expect(lines[2]).toBe('2026-11-15 12:00:00,"Earnings, finance",0.136986,0,USDT,success,,finance,Cash');
    expect(lines[3]).toBe('2026-11-14 08:00:00,To insurance fund,-0.1,0,USDT,success,,position:6,Contracts');
    expect(lines[6]).toBe('2026-11-13 08:00:00,Realised PnL,12.345678,0,USDT,success,,position:5,Contracts');
    expect(lines[10]).toBe('2026-11-12 09:00:00,Moved out,-1000.5,0,USDT,success,,account-transfer:1,Cash');
    expect(lines[12]).toBe(`2026-11-10 12:00:00,Withdrawal,-50,1,USDT,success,TRC20,${'cd'.repeat(32)},Cash`);
    expect(lines).toHaveLength(15);
    expect(lines[14]).toBe('');
  });

  it('defuses text a spreadsheet would run as a formula, never an amount', () => {
    const rows = statementRows(sources, { from: '2026-11-30', to: '2026-11-30' });
    const csv = statementCsv(rows, {
      headers: HEADERS,
      kind: (k) => k,
      account: (a) => a,
      status: (s) => s,
    });
    expect(csv.split('\r\n')[1]).toBe("2026-11-30 12:00:00,transferIn,2,0,USDT,success,,'=cmd,cash");
  });
});
