/**
 * Market simulator figures: ticks per second (price of one pair at a 100 ms step, the book's refresh
 * rate), feed seconds generated per second (all pairs: tickers, Curr, 56 candles, 80 books), and the
 * latency of a 1,000-candle K-line query per interval, cold (a fresh simulator) and warm (p50/p99 over
 * windows ending at different times).
 */
import { feedMessagesBetween, ALL_SUBSCRIPTIONS } from '../engine/market/feed';
import { MarketSim } from '../engine/market/market';
import { SYMBOLS } from '../engine/market/symbols';
import { INTERVALS } from '../engine/market/types';

export const name = 'market simulator';

const NOW = Date.UTC(2026, 10, 21, 9, 0, 0);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

export async function run(): Promise<void> {
  const sim = new MarketSim(2026);
  const btc = SYMBOLS[0]!;

  let t = performance.now();
  let ticks = 0;
  for (let ms = 0; performance.now() - t < 1_000; ms += 100, ticks++) sim.price(btc, NOW + ms);
  console.log(
    `ticks per second (one pair, 100 ms steps): ${Math.round(ticks / ((performance.now() - t) / 1000))}`,
  );

  t = performance.now();
  let seconds = 0;
  let messages = 0;
  for (; performance.now() - t < 2_000; seconds++) {
    messages += feedMessagesBetween(
      sim,
      NOW + seconds * 1000,
      NOW + (seconds + 1) * 1000,
      ALL_SUBSCRIPTIONS,
    ).length;
  }
  const elapsed = (performance.now() - t) / 1000;
  console.log(
    `feed: ${Math.round(seconds / elapsed)} simulated seconds per second (${Math.round(messages / seconds)} messages each)`,
  );

  // Cold: median of three fresh simulators (other seeds), as wall time and as this process's CPU time (the
  // latter stays meaningful on a loaded machine). Warm: p50/p99 of windows ending at different times.
  for (const interval of INTERVALS) {
    const wall: number[] = [];
    const cpu: number[] = [];
    let sim7 = new MarketSim(7);
    for (const seed of [7, 8, 9]) {
      const fresh = new MarketSim(seed);
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      fresh.kline(btc, interval, NOW, 1000);
      wall.push(performance.now() - w0);
      const used = process.cpuUsage(c0);
      cpu.push((used.user + used.system) / 1000);
      if (seed === 7) sim7 = fresh;
    }
    const samples: number[] = [];
    for (let i = 0; i < 50; i++) {
      const c = performance.now();
      sim7.kline(btc, interval, NOW + i * 61_000, 1000);
      samples.push(performance.now() - c);
    }
    samples.sort((a, b) => a - b);
    wall.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    console.log(
      `kline ${interval.padEnd(3)} x1000: cold ${wall[1]!.toFixed(1)} ms (cpu ${cpu[1]!.toFixed(1)} ms), ` +
        `warm p50 ${percentile(samples, 50).toFixed(2)} ms, p99 ${percentile(samples, 99).toFixed(2)} ms`,
    );
  }
}
