/**
 * What devices replicate for the account statement and today's PnL (docs/SPEC.md §12): the member's own
 * lines of each ledger entry of the statement's kinds (`ledgerLines`: realised PnL, funding, fees, moves
 * between accounts), netted per sub-account, and each funding payment with its mark price (`fundingPayments`).
 */
import { describe, expect, it } from 'vitest';

import type { LedgerLinesView } from '../../../engine/index';

import type { FundingView } from '../../../engine/contract';

import { harness } from './harness';

describe('statement rows on the device (ledgerLines, fundingPayments)', () => {
  it('a move, a contract opened over a funding time and closed: each entry its member lines, exact', async () => {
    const h = await harness(Date.UTC(2026, 10, 21, 7, 0, 0));
    const m = await h.member({ cash: '10000' });
    const other = await h.member({ cash: '10000' });
    expect(
      (await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '1000.5' })).code,
    ).toBe(0);
    const open = {
      symbol: 'BTC/USDT',
      market: 'contract',
      volume: '0.01',
      leverage: 10,
      marginMode: 'isolated',
    } as const;
    expect((await m.call('/api/order/place', { ...open, side: 'open_long' })).code).toBe(0);
    await h.advance(3_600_000 + 1_000);
    expect((await m.call('/api/order/place', { ...open, side: 'close_long' })).code).toBe(0);

    const pulled = await m.call('/api/sync/pull', { limit: 500 });
    expect(pulled.code).toBe(0);
    const changes = pulled.data.changes;
    const lines = changes.filter((c) => c.table === 'ledgerLines').map((c) => c.record as LedgerLinesView);
    const kinds = lines.map((l) => l.kind);
    // Only the statement's kinds: no holds or releases of the isolated margin, no deposit of the test's cash.
    expect(new Set(kinds)).toEqual(
      new Set(['account:transfer', 'trade:fee', 'contract:funding', 'contract:pnl']),
    );
    const move = lines.find((l) => l.kind === 'account:transfer')!;
    expect(move.lines).toEqual([
      { account: 'cash', asset: 'USDT', amount: '-1000.5' },
      { account: 'contract', asset: 'USDT', amount: '1000.5' },
    ]);
    // Two fees (open, close), each one contract line, negative.
    const fees = lines.filter((l) => l.kind === 'trade:fee');
    expect(fees).toHaveLength(2);
    for (const f of fees)
      expect(f.lines).toEqual([
        { account: 'contract', asset: 'USDT', amount: expect.stringMatching(/^-\d+(\.\d{1,6})?$/) },
      ]);
    // One funding payment at 08:00 UTC, its line the negation of the payment (paid: out of the account).
    const funding = changes.filter((c) => c.table === 'fundingPayments').map((c) => c.record as FundingView);
    expect(funding).toHaveLength(1);
    expect(funding[0]).toMatchObject({
      time: Date.UTC(2026, 10, 21, 8) / 1000,
      markPrice: expect.stringMatching(/^\d+(\.\d+)?$/),
    });
    const fundingLine = lines.find((l) => l.kind === 'contract:funding')!;
    expect(fundingLine.lines).toHaveLength(1);
    const paid = funding[0]!.amount;
    expect(fundingLine.lines[0]!.amount).toBe(paid.startsWith('-') ? paid.slice(1) : `-${paid}`);
    // Nothing of one member reaches another.
    const theirs = await other.call('/api/sync/pull', { limit: 500 });
    const otherTables = theirs.data.changes.map((c) => c.table);
    expect(otherTables).not.toContain('ledgerLines');
    expect(otherTables).not.toContain('fundingPayments');
  });
});
