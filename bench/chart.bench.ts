/**
 * The K-line chart in real Chromium (Debian's /usr/bin/chromium through playwright-core) against a small
 * page holding only the app's chart module (src/features/kline/chart.ts) at the phone size: setData of
 * 1,000 wire candles (what a member holds after scrolling back a few 300-candle pages) and of 100,000,
 * as decimal strings converted as the screen converts them, and the p50/p99 of one live update of the last
 * candle (a tick is series.update, never setData; ARCHITECTURE.md budgets: <= 200 ms and p99 <= 1 ms). Each
 * figure is the call itself and, for setData, also until the next painted frame. Skipped when Chromium is
 * absent.
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

export const name = 'K-line chart (Chromium)';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** What a member holds after paging back (src/features/kline/use-kline-chart.ts) and the library's ceiling. */
const CANDLE_COUNTS = [1_000, 100_000] as const;
const UPDATES = 2_000;

const ENTRY = `
import { convert, createKlineChart } from './src/features/kline/chart';

const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

function candles(count) {
  const out = [];
  let price = 95000;
  const start = 1_700_000_000 - count * 60;
  for (let i = 0; i < count; i++) {
    const open = price;
    price = Math.max(1, price * (1 + Math.sin(i * 12.9898) * 0.002));
    const high = Math.max(open, price) * 1.0007;
    const low = Math.min(open, price) * 0.9993;
    out.push({ time: start + i * 60, open: open.toFixed(2), high: high.toFixed(2), low: low.toFixed(2),
      close: price.toFixed(2), volume: (10 + (i % 17)).toFixed(4) });
  }
  return out;
}

window.runBench = async (count, updates) => {
  const box = document.createElement('div');
  box.style.width = '343px';
  box.style.height = '340px';
  document.body.append(box);
  const chart = createKlineChart(box, { theme: { dark: false }, onNeedOlder: () => {} });
  const list = candles(count);
  let c0 = performance.now();
  convert(list, '#00000080', '#ffffff80');
  const conversion = performance.now() - c0;
  await frame();
  let t = performance.now();
  chart.setCandles(list, 2);
  const setData = performance.now() - t;
  await frame();
  const setDataPainted = performance.now() - t;
  const last = { ...list[list.length - 1] };
  const samples = [];
  for (let i = 0; i < updates; i++) {
    if (i % 60 === 59) { last.time += 60; last.open = last.close; }
    last.close = (Number(last.open) + Math.sin(i) * 20).toFixed(2);
    last.high = String(Math.max(Number(last.high), Number(last.close)));
    last.low = String(Math.min(Number(last.low), Number(last.close)));
    t = performance.now();
    chart.update({ ...last });
    samples.push(performance.now() - t);
    if (i % 50 === 0) await frame();
  }
  chart.destroy();
  return { setData, setDataPainted, conversion, samples };
};
`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

export async function run(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`skipped: no Chromium at ${CHROMIUM}`);
    return;
  }
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'ts', sourcefile: 'chart-entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const js = bundle.outputFiles[0]?.text ?? '';
  const server = createServer((req, res) => {
    if (req.url === '/bench.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><body style="margin:0"><script type="module" src="/bench.js"></script></body>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => 'runBench' in window);
    type Result = { setData: number; setDataPainted: number; conversion: number; samples: number[] };
    type Run = (count: number, updates: number) => Promise<Result>;
    // The budgets assume an idle machine; say how busy this one was.
    console.log(`load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    for (const count of CANDLE_COUNTS) {
      const runs: Result[] = [];
      for (let i = 0; i < 3; i++) {
        runs.push(
          await page.evaluate(([n, u]) => (window as unknown as { runBench: Run }).runBench(n, u), [
            count,
            UPDATES,
          ] as const),
        );
      }
      const updates = runs.flatMap((r) => r.samples).sort((a, b) => a - b);
      const label = `${count.toLocaleString('en-US')} candles`;
      console.log(
        `${label}: setData ${median(runs.map((r) => r.setData)).toFixed(1)} ms ` +
          `(of which string conversion ${median(runs.map((r) => r.conversion)).toFixed(1)} ms; until painted ` +
          `${median(runs.map((r) => r.setDataPainted)).toFixed(1)} ms; median of 3; budget 200 ms)`,
      );
      console.log(
        `${label}: live update of the last candle p50 ${percentile(updates, 50).toFixed(3)} ms, ` +
          `p99 ${percentile(updates, 99).toFixed(3)} ms over ${updates.length} (budget p99 1 ms)`,
      );
    }
  } finally {
    await browser.close();
    server.close();
  }
}
