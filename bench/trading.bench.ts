/**
 * Order placement throughput (issue 13): market orders through the real engine (wire call, unit of work,
 * ledger entries, fee share) against a 1,000-level simulated book, for orders that take one level and for
 * orders that walk all 1,000 (the price band widened to 100% so nothing stops them), plus the pure walk
 * and the contract open/close round trip (mark price, risk tier, liquidation price). The sweeps are spaced
 * by the book's refill horizon, so each walks a whole book (market impact, engine/trading/impact.ts).
 */
import { WALK_LEVELS, walkBook } from '../engine/trading/fills';
import { marketFor } from '../engine/market/instance';
import { findSymbol } from '../engine/market/symbols';
import { REFILL_HORIZON_MS } from '../engine/trading/impact';
import { harness } from '../tests/engine/markets/harness';

export const name = 'trading';

const START = Date.UTC(2026, 10, 21, 9, 30, 0);

async function rate(label: string, ms: number, step: (i: number) => Promise<void>): Promise<void> {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < ms) await step(n++);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${label}: ${Math.round(n / seconds)} per second (${n} in ${seconds.toFixed(1)} s)`);
}

export async function run(): Promise<void> {
  const btc = findSymbol('BTC')!;
  const sim = marketFor(7);
  const book = sim.book(btc, START, WALK_LEVELS, WALK_LEVELS);
  const depth = book.asks.reduce((s, l) => s + BigInt(l.qty) * 100n, 0n);
  console.log(
    `book: ${book.asks.length} ask levels from ${book.asks[0]!.price / 1e6} to ${book.asks.at(-1)!.price / 1e6} USDT, ${Number(depth) / 1e6} BTC`,
  );
  await rate('pure walk of all 1,000 levels', 1_000, async () => {
    walkBook(book, 'buy', depth, { limit: null, bandBps: 10_000 });
  });

  const h = await harness(START, 7, { priceBandBps: 10_000 });
  const m = await h.member({ cash: '900000000000000' });
  // A new book every order (the book refreshes every 100 ms); the clock moves without settling hooks.
  const tick = async (): Promise<void> => {
    h.clock.advance(100);
  };
  await rate('spot market buy, one level (0.001 BTC)', 2_000, async () => {
    await tick();
    await m.call('/api/order/place', { symbol: 'BTC/USDT', market: 'spot', side: 'buy', volume: '0.001' });
  });
  const all = (Number(depth) / 1e6).toFixed(6);
  let levels = 0;
  await rate(`spot market buy walking the 1,000-level book (${all} BTC)`, 3_000, async () => {
    // Past the book's refill horizon (engine/trading/impact.ts): each sweep meets a whole book again.
    h.clock.advance(REFILL_HORIZON_MS);
    const res = await m.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'spot',
      side: 'buy',
      volume: all,
    });
    if (res.code !== 0) throw new Error(`order refused: ${res.code} ${res.msg}`);
    levels = res.data.fills;
  });
  console.log(`  (fills per order: ${levels})`);

  const c = await h.member({ cash: '1000000' });
  await c.call('/api/account/transfer', { from: 'cash', to: 'contract', amount: '1000000' });
  await rate('contract open + close round trip (0.01 BTC, 10x)', 2_000, async () => {
    await tick();
    await c.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'open_long',
      volume: '0.01',
      leverage: 10,
    });
    await c.call('/api/order/place', {
      symbol: 'BTC/USDT',
      market: 'contract',
      side: 'close_long',
      volume: '0.01',
    });
  });
}
