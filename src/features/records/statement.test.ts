/** The statement's rows and CSV, and the records' date and status filters (docs/SPEC.md §12). */
import { describe, expect, it } from 'vitest';
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
};

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
  it('merges the range newest first with signed exact amounts, and writes RFC 4180 CSV', () => {
    const rows = statementRows(sources, { from: '2026-11-01', to: '2026-11-20' });
    expect(rows.map((r) => [r.kind, r.amount])).toEqual([
      ['deposit', '5'],
      ['earning', '0.136986'],
      ['transferOut', '-0.000001'],
      ['withdrawal', '-50'],
      ['deposit', '1000.123456'],
    ]);
    const csv = statementCsv(rows, {
      headers: ['Time', 'Type', 'Amount', 'Fee', 'Currency', 'Status', 'Network', 'Reference'],
      kind: (k) =>
        ({
          deposit: 'Deposit',
          withdrawal: 'Withdrawal',
          transferIn: 'In',
          transferOut: 'Out',
          earning: 'Earnings, finance',
        })[k],
      status: (s) => s,
    });
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Time,Type,Amount,Fee,Currency,Status,Network,Reference');
    expect(lines[2]).toBe('2026-11-15 12:00:00,"Earnings, finance",0.136986,0,USDT,success,,finance');
    expect(lines[4]).toBe(`2026-11-10 12:00:00,Withdrawal,-50,1,USDT,success,TRC20,${'cd'.repeat(32)}`);
    expect(lines).toHaveLength(7);
    expect(lines[6]).toBe('');
  });

  it('defuses text a spreadsheet would run as a formula, never an amount', () => {
    const rows = statementRows(sources, { from: '2026-11-30', to: '2026-11-30' });
    const csv = statementCsv(rows, {
      headers: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      kind: (k) => k,
      status: (s) => s,
    });
    expect(csv.split('\r\n')[1]).toBe("2026-11-30 12:00:00,transferIn,2,0,USDT,success,,'=cmd");
  });
});
