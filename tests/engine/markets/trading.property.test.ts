/**
 * Property tests of trading (docs/RULES.md K12-K14): random sequences of spot orders, contract opens and
 * closes at random leverage and margin mode, margin changes and clock jumps (through funding times and
 * liquidations) across several members. After every sequence: money is conserved across members, the
 * insurance fund, fees and the house (every entry balanced, deposits equal to what all accounts hold); the
 * funding payments of longs, shorts and the house sum to zero; no member or platform balance is negative.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balances, journal, type BalanceRow, type JournalEntry } from '../../../engine/ledger/tables';
import { harness, type Member } from './harness';

const who = fc.integer({ min: 0, max: 3 });
const action = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('open' as const),
      m: who,
      side: fc.constantFrom('open_long', 'open_short'),
      symbol: fc.constantFrom('BTC/USDT', 'ETH/USDT', 'SOL/USDT'),
      volume: fc.constantFrom('0.01', '0.05', '0.2', '1', '3'),
      leverage: fc.constantFrom(5, 20, 50, 100),
      marginMode: fc.constantFrom('cross', 'isolated'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('close' as const),
      m: who,
      side: fc.constantFrom('close_long', 'close_short'),
      symbol: fc.constantFrom('BTC/USDT', 'ETH/USDT', 'SOL/USDT'),
      volume: fc.constantFrom('0.01', '0.1', '1'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('spot' as const),
      m: who,
      side: fc.constantFrom('buy', 'sell'),
      volume: fc.constantFrom('0.001', '0.01', '0.1'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('wait' as const),
      ms: fc.integer({ min: 1_000, max: 20 * 3_600_000 }),
    }),
  },
);

describe('trading properties', () => {
  it('K14 money is conserved across members, insurance fund, fees and house; funding sums to zero; no balance below zero', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 18 }), async (actions) => {
        const h = await harness();
        const members: Member[] = [];
        for (let i = 0; i < 4; i++) {
          const m = await h.member({ cash: '20000', invitedBy: i > 0 ? members[0]!.id : null });
          await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '15000' });
          members.push(m);
        }
        for (const a of actions) {
          if (a.t === 'wait') {
            await h.advance(a.ms);
            continue;
          }
          const m = members[a.m]!;
          if (a.t === 'open') {
            await m.call('/api/position/settings', { leverage: a.leverage, marginMode: a.marginMode });
            await m.call('/api/order/place', {
              symbol: a.symbol,
              market: 'contract',
              side: a.side,
              volume: a.volume,
            });
          } else if (a.t === 'close') {
            await m.call('/api/order/place', {
              symbol: a.symbol,
              market: 'contract',
              side: a.side,
              volume: a.volume,
            });
          } else {
            await m.call('/api/order/place', {
              symbol: 'BTC/USDT',
              market: 'spot',
              side: a.side,
              volume: a.volume,
            });
          }
        }
        expect(await h.invariants()).toEqual([]);
        const rows = (await h.store.scan(balances.name)) as BalanceRow[];
        // Conservation: the four deposits of 20,000 are exactly what members, fees, insurance and the house
        // hold together (world accounts are the only other side).
        const usdt = rows.filter((r) => r.asset === 'USDT');
        const inside = usdt
          .filter((r) => !r.account.startsWith('world:'))
          .reduce((s, r) => s + BigInt(r.amount), 0n);
        expect(inside).toBe(80_000_000_000n);
        for (const r of rows) {
          if (r.account.startsWith('user:') || r.account.startsWith('platform:')) {
            expect(BigInt(r.amount), r.id).toBeGreaterThanOrEqual(0n);
          }
        }
        // Funding: every payment is balanced between a member and the house.
        const entries = (await h.store.scan(journal.name)) as JournalEntry[];
        let members_ = 0n;
        let house = 0n;
        for (const e of entries.filter((x) => x.kind === 'contract:funding')) {
          for (const l of e.legs) {
            if (l.account.startsWith('house:')) house += BigInt(l.amount);
            else members_ += BigInt(l.amount);
          }
        }
        expect(members_ + house).toBe(0n);
      }),
      { numRuns: 12, seed: 13 },
    );
  }, 120_000);
});
