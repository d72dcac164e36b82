/**
 * Market impact (issue 24 item 5; docs/TRADING.md "Market impact"): the book remembers what members took
 * and refills with a time constant. A sweep moves the next order's fill price; a time constant later the
 * book has partly refilled; after REFILL_HORIZON_MS it is whole again and fills as the undisturbed book.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marketFor } from '../../../engine/market/instance';
import { findSymbol } from '../../../engine/market/symbols';
import { parseAmount, units } from '../../../engine/money';
import { contractBook } from '../../../engine/trading/mark';
import { averagePrice, depleted, walkBook } from '../../../engine/trading/fills';
import { refilled, REFILL_HORIZON_MS, REFILL_MS } from '../../../engine/trading/impact';
import type { OrderView } from '../../../engine/trading/views';
import { harness, type OrderBody } from './harness';

const BTC = findSymbol('BTC')!;
const spot = (side: 'buy' | 'sell', volume: string): OrderBody => ({
  symbol: 'BTC/USDT',
  market: 'spot',
  side,
  type: 'market',
  volume,
});

describe('market impact', () => {
  it('a 20 BTC sweep makes the next buy fill higher than the undisturbed book; the book refills with its time constant', async () => {
    const h = await harness();
    const m = await h.member({ cash: '5000000' });
    const sim = marketFor(h.rt.seed);
    /** What 0.5 BTC would pay on the undisturbed book at this instant. */
    const undisturbed = (): bigint => {
      const book = sim.book(BTC, h.clock.now(), 1000, 1000);
      return averagePrice(walkBook(book, 'buy', units(1) / 2n, { limit: null, bandBps: 500 }));
    };
    const buy = async (volume: string): Promise<OrderView> => {
      const res = await m.call('/api/order/place', spot('buy', volume));
      expect(res.code).toBe(0);
      return res.data;
    };
    const sweep = await buy('20');
    expect(sweep.status).toBe('filled');
    expect(sweep.fills).toBeGreaterThan(10);

    // Right after: the levels the sweep took are missing, so 0.5 BTC pays more than the book shows.
    h.clock.advance(100);
    const next = parseAmount((await buy('0.5')).avgPrice);
    const clean = undisturbed();
    expect(next).toBeGreaterThan(clean);
    const gapNow = Number(next - clean) / Number(clean);

    // One time constant later, e^-1 of the missing quantity is still missing: the gap has narrowed.
    h.clock.advance(REFILL_MS);
    const later = parseAmount((await buy('0.5')).avgPrice);
    const cleanLater = undisturbed();
    const gapLater = Number(later - cleanLater) / Number(cleanLater);
    expect(gapLater).toBeLessThan(gapNow);
    expect(later).toBeGreaterThan(cleanLater);

    // After the horizon the book is whole: the fill is exactly the undisturbed book's.
    h.clock.advance(REFILL_HORIZON_MS);
    expect(parseAmount((await buy('0.5')).avgPrice)).toBe(undisturbed());
    expect(await h.invariants()).toEqual([]);
  });

  it('each side and each market has its own memory: a sweep of the asks leaves the bids and the contract book alone', async () => {
    const h = await harness();
    const m = await h.member({ cash: '5000000' });
    expect((await m.call('/api/order/place', spot('buy', '20'))).code).toBe(0);
    h.clock.advance(100);
    const sim = marketFor(h.rt.seed);
    const t = h.clock.now();
    const sell = (await m.call('/api/order/place', spot('sell', '0.5'))).data;
    const bids = sim.book(BTC, t, 1000, 1000);
    expect(parseAmount(sell.avgPrice)).toBe(
      averagePrice(walkBook(bids, 'sell', units(1) / 2n, { limit: null, bandBps: 500 })),
    );
    expect(
      (await m.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '100000' })).code,
    ).toBe(0);
    const open = await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'open_long',
      volume: '0.5',
      leverage: 10,
    });
    expect(open.code).toBe(0);
    const book = contractBook(sim, BTC, t, 1000);
    expect(parseAmount(open.data.avgPrice)).toBe(
      averagePrice(walkBook(book, 'buy', units(1) / 2n, { limit: null, bandBps: 500 })),
    );
  });

  it('over any sequence of buys, sells and waits, a fill is never better than the undisturbed book, and the book is whole again after the horizon (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            side: fc.constantFrom('buy' as const, 'sell' as const),
            volume: fc.constantFrom('0.01', '0.5', '3', '12'),
            wait: fc.constantFrom(0, 100, 5_000, 30_000, REFILL_MS, 4 * REFILL_MS),
          }),
          { minLength: 3, maxLength: 10 },
        ),
        async (orders) => {
          const h = await harness();
          // Cash for the longest sequence: 40 BTC, then up to ten buys of 12 BTC, each dearer than the last
          // while the book refills; a buy short of cash would be refused (4011), which this property is not about.
          const m = await h.member({ cash: '1000000000' });
          // Coins to sell: bought long before, past the horizon.
          expect((await m.call('/api/order/place', spot('buy', '40'))).code).toBe(0);
          h.clock.advance(REFILL_HORIZON_MS);
          const sim = marketFor(h.rt.seed);
          // BTC the member surely holds (fees taken at most 1%): a sell beyond it is refused (4011), which is
          // not what this property is about, so such a sell is left out of the sequence.
          let held = parseAmount('39');
          for (const o of orders) {
            h.clock.advance(o.wait);
            if (o.side === 'sell' && parseAmount(o.volume) > held) continue;
            const book = sim.book(BTC, h.clock.now(), 1000, 1000);
            const res = await m.call('/api/order/place', spot(o.side, o.volume));
            expect(res.code).toBe(0);
            const order = res.data;
            const filled = parseAmount(order.filled);
            held = o.side === 'buy' ? held + (filled * 99n) / 100n : held - filled;
            const clean = walkBook(book, o.side, filled, { limit: null, bandBps: 500 });
            const paid = parseAmount(order.avgPrice);
            if (o.side === 'buy') expect(paid).toBeGreaterThanOrEqual(averagePrice(clean));
            else expect(paid).toBeLessThanOrEqual(averagePrice(clean));
          }
          h.clock.advance(REFILL_HORIZON_MS);
          const t = h.clock.now();
          const after = (await m.call('/api/order/place', spot('buy', '0.5'))).data;
          const book = sim.book(BTC, t, 1000, 1000);
          expect(parseAmount(after.avgPrice)).toBe(
            averagePrice(walkBook(book, 'buy', units(1) / 2n, { limit: null, bandBps: 500 })),
          );
          expect(await h.invariants()).toEqual([]);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('refilled() decays exponentially and ends at the horizon; depleted() takes from the top of the side', () => {
    expect(refilled(1_000_000, 0, 0)).toBe(1_000_000);
    expect(refilled(1_000_000, 0, REFILL_MS)).toBe(367_879);
    expect(refilled(1_000_000, 0, 2 * REFILL_MS)).toBe(135_335);
    expect(refilled(1_000_000, 0, REFILL_HORIZON_MS - 1)).toBeGreaterThan(0);
    expect(refilled(1_000_000, 0, REFILL_HORIZON_MS)).toBe(0);
    const book = {
      mid: 100,
      asks: [
        { price: 101, qty: 5 },
        { price: 102, qty: 5 },
        { price: 103, qty: 5 },
      ],
      bids: [{ price: 99, qty: 5 }],
    };
    expect(depleted(book, 'buy', 7).asks).toEqual([
      { price: 102, qty: 3 },
      { price: 103, qty: 5 },
    ]);
    expect(depleted(book, 'buy', 7).bids).toEqual(book.bids);
    expect(depleted(book, 'sell', 5).bids).toEqual([]);
    expect(depleted(book, 'buy', 0)).toBe(book);
  });
});
