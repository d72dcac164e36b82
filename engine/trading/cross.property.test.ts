/**
 * Properties of the cross account (issue 24; docs/TRADING.md "Liquidation price", "Cross account"): a flat
 * hedged book has no liquidation price near the market, the account ratio is total maintenance / margin
 * balance, and at a liquidation price the margin balance meets the maintenance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import { mulDiv, SCALE, type Micro } from '../money';
import { initialMargin, notional, unrealisedPnl } from './margin';
import { bandOf, crossAt, crossView, type PositionAtMark } from './position-figures';
import { tieredMaintenance, tierOf, tiersFor } from './tiers';

const SYMBOLS = ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'] as const;
const price = fc.bigInt({ min: 1_000_000n, max: 120_000_000_000n });
const quantity = fc.bigInt({ min: 1_000n, max: 50_000_000n });

function withMark(symbol: string, mark: Micro, base: (s: string) => Micro): (s: string) => Micro {
  return (s) => (s === symbol ? mark : base(s));
}

/** Margin balance less maintenance of the cross account at the marks. */
function cushion(open: readonly PositionAtMark[], free: Micro, markOf: (s: string) => Micro): Micro {
  const c = crossAt(open, free, markOf);
  return c.equity - c.maintenance;
}

describe('cross account properties', () => {
  it('a flat hedged book opened at any allowed leverage has no liquidation price within 20% of its entry', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SYMBOLS),
        price,
        quantity,
        fc.integer({ min: 1, max: 125 }),
        fc.bigInt({ min: 0n, max: 1_000_000_000n }),
        (symbol, entry, q, wanted, extra) => {
          const tiers = tiersFor(defaultConfig.riskTiers, symbol);
          const tier = tierOf(tiers, notional(q, entry));
          fc.pre(tier !== null && notional(q, entry) > 0n);
          const leverage = Math.min(wanted, tier!.maxLeverage, defaultConfig.maxLeverage);
          const margin = initialMargin(q, entry, leverage);
          const leg = (id: string, side: 'long' | 'short'): PositionAtMark => ({
            id,
            symbol,
            side,
            marginMode: 'cross',
            volume: q,
            entryPrice: entry,
            margin,
          });
          const open = [leg('1', 'long'), leg('2', 'short')];
          const { band } = bandOf(open[0]!, open, extra, () => entry);
          if (band.below !== null) expect(band.below * 10n).toBeLessThan(entry * 8n);
          if (band.above !== null) expect(band.above * 10n).toBeGreaterThan(entry * 12n);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the account ratio is total maintenance / (wallet balance + total unrealised PnL), over any book', () => {
    const position = fc.record({
      symbol: fc.constantFrom(...SYMBOLS),
      side: fc.constantFrom('long' as const, 'short' as const),
      marginMode: fc.constantFrom('cross' as const, 'isolated' as const),
      volume: quantity,
      entryPrice: price,
      margin: fc.bigInt({ min: 1_000_000n, max: 100_000_000_000n }),
    });
    fc.assert(
      fc.property(
        fc.array(position, { minLength: 1, maxLength: 6 }),
        fc.bigInt({ min: 0n, max: 100_000_000_000n }),
        fc.tuple(price, price, price),
        (rows, free, [b, e, s]) => {
          const open = rows.map((r, i) => ({ ...r, id: String(i + 1) }));
          const marks: Record<string, Micro> = { 'BTC/USDT': b, 'ETH/USDT': e, 'SOL/USDT': s };
          const markOf = (sym: string) => marks[sym]!;
          let wallet = free;
          let pnl = 0n;
          let mm = 0n;
          for (const p of open) {
            if (p.marginMode !== 'cross') continue;
            const mark = markOf(p.symbol);
            wallet += p.margin;
            pnl += unrealisedPnl(p.side, p.volume, p.entryPrice, mark);
            mm += tieredMaintenance(tiersFor(defaultConfig.riskTiers, p.symbol), notional(p.volume, mark));
          }
          const equity = wallet + pnl;
          const view = crossView(crossAt(open, free, markOf));
          const bps = mm === 0n ? 0n : equity > 0n ? mulDiv(mm, 10_000n, equity, 'ceil') : 10_000n;
          expect(view.marginRatio).toBe(`${bps / 100n}.${String(bps % 100n).padStart(2, '0')}`);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('at a cross liquidation price the margin balance meets the maintenance (other pairs held at their marks)', () => {
    const leg = fc.record({
      side: fc.constantFrom('long' as const, 'short' as const),
      volume: quantity,
      entryPrice: price,
      margin: fc.bigInt({ min: 1_000_000n, max: 10_000_000_000n }),
    });
    fc.assert(
      fc.property(
        fc.array(leg, { minLength: 1, maxLength: 2 }),
        fc.array(fc.record({ symbol: fc.constantFrom('ETH/USDT', 'SOL/USDT'), leg }), { maxLength: 2 }),
        fc.bigInt({ min: 0n, max: 10_000_000_000n }),
        (own, others, free) => {
          const open: PositionAtMark[] = [
            ...own.map((l, i) => ({ ...l, id: `b${i}`, symbol: 'BTC/USDT', marginMode: 'cross' as const })),
            ...others.map((o, i) => ({
              ...o.leg,
              id: `o${i}`,
              symbol: o.symbol,
              marginMode: 'cross' as const,
            })),
          ];
          const base = (s: string) => (s === 'ETH/USDT' ? 3_000_000_000n : 150_000_000n);
          const { band } = bandOf(open[0]!, open, free, base);
          const q = own.reduce((sum, l) => sum + l.volume, 0n);
          // One micro-USDT of price moves the balance by at most Q / SCALE; the rest is rounding.
          const tolerance = q / SCALE + 1n + BigInt(open.length) * 2n;
          for (const edge of [band.below, band.above]) {
            if (edge === null) continue;
            const at = cushion(open, free, withMark('BTC/USDT', edge, base));
            expect(at >= -tolerance && at <= tolerance + q / SCALE).toBe(true);
          }
          // Just inside the band the account is safe.
          if (band.below !== null) {
            expect(cushion(open, free, withMark('BTC/USDT', band.below + 10n, base))).toBeGreaterThan(
              -tolerance,
            );
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
