/**
 * Lighthouse (mobile preset, the npm package on Debian's Chromium) against `vite preview` of the production
 * build at /home, printing the four category scores next to ARCHITECTURE.md's budgets; then the offline
 * repeat visit: first-contentful-paint of /home reloaded with no network, served by the service worker.
 * Builds dist/ first when it is missing. Run alone with `npm run bench lighthouse`.
 */
import { existsSync } from 'node:fs';
import { build, preview, type PreviewServer } from 'vite';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';

export const name = 'Lighthouse and offline first paint (/home, preview build)';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const CATEGORIES = [
  { id: 'performance', budget: 95 },
  { id: 'accessibility', budget: 95 },
  { id: 'best-practices', budget: 95 },
  { id: 'seo', budget: undefined },
] as const;
const OFFLINE_FCP_BUDGET_MS = 1000;
const OFFLINE_RUNS = 5;
/** Sent as source text: tsx would wrap a function literal's inner closures in a helper the page lacks. */
const READ_FCP = `new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    const entry = list.getEntriesByName('first-contentful-paint')[0];
    if (entry) { observer.disconnect(); resolve(entry.startTime); }
  }).observe({ type: 'paint', buffered: true });
})`;

async function startPreview(): Promise<{ server: PreviewServer; origin: string }> {
  if (!existsSync('dist/index.html')) await build({ logLevel: 'warn' });
  const server = await preview({ preview: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  return { server, origin: `http://127.0.0.1:${address.port}` };
}

/** Lighthouse's simulated scores vary from run to run; its documentation advises the median of several. */
const LIGHTHOUSE_RUNS = 3;

type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

async function lighthouseRun(url: string): Promise<Report> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  try {
    // No config: Lighthouse's default is the mobile preset (Moto G Power emulation, slow 4G throttling).
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES.map((c) => c.id),
    });
    if (!result) throw new Error('Lighthouse returned no result');
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

async function lighthouseScores(url: string): Promise<void> {
  const runs: Report[] = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i += 1) runs.push(await lighthouseRun(url));
  const performance = (r: Report) => r.categories.performance?.score ?? 0;
  // The median run by performance score: its other figures are shown as they were measured together.
  const median = [...runs].sort((a, b) => performance(a) - performance(b))[Math.floor(runs.length / 2)];
  if (!median) return;
  console.log(
    `lighthouse runs (performance): ${runs.map((r) => Math.round(performance(r) * 100)).join(', ')}`,
  );
  for (const { id, budget } of CATEGORIES) {
    const score = median.categories[id]?.score;
    const shown = score == null ? 'n/a' : String(Math.round(score * 100));
    const verdict = budget === undefined ? '' : score != null && score * 100 >= budget ? ' ok' : ' BELOW';
    console.log(
      `lighthouse ${id.padEnd(15)} ${shown.padStart(3)}${budget ? ` (budget >= ${budget})${verdict}` : ''}`,
    );
  }
  // What cost points, so a drop is actionable without opening the report.
  for (const { id } of CATEGORIES) {
    const refs = median.categories[id]?.auditRefs ?? [];
    const failed = refs
      .filter((ref) => ref.weight > 0 && (median.audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => ref.id);
    if (failed.length) console.log(`lighthouse ${id} lost points on: ${failed.join(', ')}`);
  }
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time'] as const) {
    const audit = median.audits[id];
    if (audit?.displayValue) console.log(`lighthouse ${id.padEnd(25)} ${audit.displayValue}`);
  }
}

/** First-contentful-paint of /home reloaded offline: the repeat visit of an installed app on no network. */
async function offlineFirstPaint(origin: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 2,
      isMobile: true,
      locale: 'zh-CN',
    });
    const page = await context.newPage();
    await page.goto(`${origin}/home`);
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, {
      timeout: 30_000,
    });
    // Let the first-install warm-up store the locale chunk, as a member's second visit would find it.
    await page.waitForTimeout(1000);
    await context.setOffline(true);
    const samples: number[] = [];
    for (let run = 0; run < OFFLINE_RUNS; run += 1) {
      await page.reload({ waitUntil: 'load' });
      const fcp = Number(await page.evaluate(READ_FCP));
      samples.push(fcp);
    }
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)] ?? Number.NaN;
    const verdict = median <= OFFLINE_FCP_BUDGET_MS ? 'ok' : 'OVER';
    console.log(
      `offline repeat visit /home first-contentful-paint: median ${median.toFixed(0)} ms of ${OFFLINE_RUNS} ` +
        `(min ${samples[0]?.toFixed(0)}, max ${samples.at(-1)?.toFixed(0)}; budget <= ${OFFLINE_FCP_BUDGET_MS} ms) ${verdict}`,
    );
    await context.close();
  } finally {
    await browser.close();
  }
}

export async function run(): Promise<void> {
  const { server, origin } = await startPreview();
  try {
    await lighthouseScores(`${origin}/home`);
    await offlineFirstPaint(origin);
  } finally {
    await server.close();
  }
}
