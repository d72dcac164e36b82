/**
 * Lighthouse (mobile preset, the npm package on Debian's Chromium) against the production build served as the
 * server serves it (precompressed; startServer below): /home as a first visit, then /market and /user with a
 * member logged in (registered through the UI in demo mode first; their storage is kept, the service worker,
 * its caches and the HTTP cache are not, so the page still comes from the network). Each route: five runs,
 * the median run's four category scores, and FCP, LCP, TBT and CLS each as its own median over the runs
 * (every run's value beside it) next to issue 14's budgets. Then the offline repeat visit: first-contentful-
 * paint of /home reloaded with no network, served by the service worker. Builds dist/ first when it is
 * missing. Run alone with `npm run bench lighthouse`; the figures move with the machine's load (it prints the
 * load average) and with the host's speed: each route prints Lighthouse's BenchmarkIndex of its runs, and
 * `LIGHTHOUSE_CPU=mid` (or `low`) replaces the constant 4x CPU slowdown with the one that makes this
 * host a mid-tier (or low-tier) phone (calibrateSlowdown below).
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import Fastify from 'fastify';
import { build } from 'vite';
import { sendPage, serveBuild } from '../server/http/static-app';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { fillRegister } from '../tests/e2e/steps';

export const name =
  'Lighthouse and offline first paint (/home, /market, /user; the build served as the server serves it)';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const CATEGORIES = [
  { id: 'performance', budget: 98 },
  { id: 'accessibility', budget: 95 },
  { id: 'best-practices', budget: 95 },
  { id: 'seo', budget: undefined },
] as const;
const OFFLINE_FCP_BUDGET_MS = 100;
/** Issue 14's budgets on the mobile preset (ms, except CLS). */
const METRICS = [
  { id: 'first-contentful-paint', budget: undefined },
  { id: 'largest-contentful-paint', budget: 1500 },
  { id: 'total-blocking-time', budget: 50 },
  { id: 'cumulative-layout-shift', budget: 0 },
] as const;
const OFFLINE_RUNS = 5;
/** Sent as source text: tsx would wrap a function literal's inner closures in a helper the page lacks. */
const READ_FCP = `new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    const entry = list.getEntriesByName('first-contentful-paint')[0];
    if (entry) { observer.disconnect(); resolve(entry.startTime); }
  }).observe({ type: 'paint', buffered: true });
})`;

/**
 * Serves dist/ as the production server does (server/http/static-app.ts): the build's precompressed Brotli copies
 * sent as they are, and every app route answered with its page. (`vite preview` gzips each response on the
 * fly: ~150 ms of CPU per page load on the same two cores as the page, which no deployment would spend.)
 * bench/first-data.bench.ts serves demo mode with it too.
 */
export async function startServer(): Promise<{ server: { close(): Promise<unknown> }; origin: string }> {
  if (!existsSync('dist/index.html')) await build({ logLevel: 'warn' });
  const app = Fastify();
  await serveBuild(app, resolve('dist'));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (request.method === 'GET' && /text\/html/.test(request.headers.accept ?? ''))
      return sendPage(reply, path);
    return reply.code(404).send();
  });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  return { server: app, origin };
}

/** Every budget missed in this run ("/market total-blocking-time 61 ms"), for the closing line. */
const missed: string[] = [];

/** Lighthouse's simulated scores vary from run to run; its documentation advises the median of several. */
const LIGHTHOUSE_RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);

export type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** Registers a demo member through the UI of the browser on `port`, leaving them logged in. */
async function logInMember(port: number, origin: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const context = browser.contexts()[0];
  if (!context) throw new Error('Chromium has no default context');
  const page = await context.newPage();
  await page.goto(`${origin}/home`);
  await page.evaluate(() => localStorage.setItem('strata.lang', 'en-US'));
  await page.goto(`${origin}/register`);
  await fillRegister(page, `lh${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL((url) => url.pathname !== '/register', { timeout: 30_000 });
  await page.waitForFunction(() => localStorage.getItem('strata.user') !== null);
  // The member stays (localStorage, IndexedDB); the worker, its caches and the HTTP cache go, so the page
  // loads from the network as on a first visit.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await page.evaluate(async () => {
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    for (const k of await caches.keys()) await caches.delete(k);
    localStorage.removeItem('strata.lang');
  });
  await page.close();
  await browser.close();
}

/**
 * The BenchmarkIndex of a mid-tier phone (a Pixel 5) and a low-tier one (a Moto G4 Power 2022) in Chrome
 * DevTools' own CPU calibration (devtools-frontend panels/mobile_throttling/CalibrationController.ts).
 * Lighthouse's constant 4x slowdown assumes a host about four times the mid-tier phone: on a faster host it
 * emulates a faster phone, on a slower host a slower one.
 */
export const PHONE_INDEX = { mid: 1000, low: 264 } as const;
type PhoneTier = keyof typeof PHONE_INDEX;

/**
 * The CPU slowdown that makes this host's Chromium a phone of `target` BenchmarkIndex, found as DevTools
 * finds it: Lighthouse's BenchmarkIndex run in a page under `Emulation.setCPUThrottlingRate`, the rate
 * bisected until the index is the target's (the benchmark is not linear in the rate, so the rate is
 * measured, not divided out).
 */
async function calibrateSlowdown(port: number, target: number): Promise<{ rate: number; host: number }> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default context');
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const benchmark = `(${pageFunctions.computeBenchmarkIndex.toString()})()`;
    const indexAt = async (rate: number) => {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      return Number(await page.evaluate(benchmark));
    };
    await indexAt(1); // V8 warms up on the first run.
    const host = await indexAt(1);
    if (host <= target) return { rate: 1, host };
    let [low, high] = [1, (2 * host) / target];
    for (let step = 0; step < 7; step += 1) {
      const rate = (low + high) / 2;
      if ((await indexAt(rate)) > target) low = rate;
      else high = rate;
    }
    return { rate: (low + high) / 2, host };
  } finally {
    await browser.close();
  }
}

/**
 * LIGHTHOUSE_CPU=mid (or low) runs Lighthouse with calibrateSlowdown's rate for that phone instead of its
 * constant 4x (the default, and what the budgets were first measured with); `run` sets it.
 */
let cpuSlowdown: number | undefined;

/**
 * One Lighthouse run of `url` in the Chromium listening on `port`, with the mobile preset. `keepStorage`: the
 * origin's storage (a logged-in member) is kept, so the caller clears what a first visit must not find.
 */
export async function lighthouseOn(port: number, url: string, keepStorage: boolean): Promise<Report> {
  // No config: Lighthouse's default is the mobile preset (Moto G Power emulation, slow 4G throttling).
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: CATEGORIES.map((c) => c.id),
    disableStorageReset: keepStorage,
    ...(cpuSlowdown === undefined ? {} : { throttling: { cpuSlowdownMultiplier: cpuSlowdown } }),
  });
  if (!result) throw new Error('Lighthouse returned no result');
  return result.lhr;
}

async function lighthouseRun(url: string, member: boolean): Promise<Report> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  try {
    if (member) await logInMember(chrome.port, new URL(url).origin);
    return await lighthouseOn(chrome.port, url, member);
  } finally {
    chrome.kill();
  }
}

async function lighthouseScores(url: string, member: boolean): Promise<void> {
  const route = `${new URL(url).pathname}${member ? ' (member logged in)' : ''}`;
  const runs: Report[] = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i += 1) runs.push(await lighthouseRun(url, member));
  const performance = (r: Report) => r.categories.performance?.score ?? 0;
  // The median run by performance score: its other figures are shown as they were measured together.
  const median = [...runs].sort((a, b) => performance(a) - performance(b))[Math.floor(runs.length / 2)];
  if (!median) return;
  const indexes = runs.map((r) => Math.round(r.environment.benchmarkIndex)).sort((a, b) => a - b);
  console.log(
    `lighthouse ${route}: performance of ${runs.length} runs ${runs.map((r) => Math.round(performance(r) * 100)).join(', ')} ` +
      `(CPU slowdown ${median.configSettings.throttling.cpuSlowdownMultiplier.toFixed(1)}x; host BenchmarkIndex ${indexes.join(', ')}); the median run's scores, each metric's median:`,
  );
  for (const { id, budget } of CATEGORIES) {
    const score = median.categories[id]?.score;
    const shown = score == null ? 'n/a' : String(Math.round(score * 100));
    const verdict = budget === undefined ? '' : score != null && score * 100 >= budget ? ' ok' : ' BELOW';
    if (verdict === ' BELOW') missed.push(`${route} ${id} ${shown}`);
    console.log(`  ${id.padEnd(25)} ${shown.padStart(6)}${budget ? ` (budget >= ${budget})${verdict}` : ''}`);
  }
  // Each metric's own median over the runs (the budgets are medians), with every run's value beside it.
  for (const { id, budget } of METRICS) {
    const values = runs.map((r) => r.audits[id]?.numericValue ?? Number.NaN);
    const value = [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    const cls = id === 'cumulative-layout-shift';
    const show = (v: number) => (cls ? v.toFixed(4) : `${Math.round(v)} ms`);
    const verdict = budget === undefined ? '' : value <= budget ? ' ok' : ' OVER';
    if (verdict === ' OVER') missed.push(`${route} ${id} ${show(value)}`);
    const limit = budget === undefined ? '' : ` (budget <= ${cls ? budget : `${budget} ms`})${verdict}`;
    console.log(
      `  ${id.padEnd(25)} ${show(value).padStart(8)}${limit}; runs ${values.map((v) => (cls ? v.toFixed(4) : Math.round(v))).join(', ')}`,
    );
  }
  // What cost points, so a drop is actionable without opening the report.
  for (const { id } of CATEGORIES) {
    const refs = median.categories[id]?.auditRefs ?? [];
    const failed = refs
      .filter((ref) => ref.weight > 0 && (median.audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => ref.id);
    if (failed.length) console.log(`  ${id} lost points on: ${failed.join(', ')}`);
  }
  printLongTasks(median);
}

interface LongTask {
  url?: string;
  startTime?: number;
  duration?: number;
}

/** The median run's main-thread tasks over 50 ms (as Lighthouse simulated them) with the script behind each. */
function printLongTasks(report: Report): void {
  const details = report.audits['long-tasks']?.details;
  const items = (details && 'items' in details ? details.items : []) as LongTask[];
  if (!items.length) return;
  const origin = new URL(report.finalDisplayedUrl).origin;
  const shown = items
    .slice(0, 6)
    .map(
      (t) =>
        `${Math.round(t.duration ?? 0)} ms at ${Math.round(t.startTime ?? 0)} (${(t.url ?? '?').replace(origin, '')})`,
    );
  console.log(`  long tasks: ${shown.join('; ')}`);
  const lcp = lcpElement(report);
  if (lcp)
    console.log(
      `  largest contentful paint element: ${lcp.selector} "${lcp.label.slice(0, 60)}"` +
        (lcp.renderDelay === undefined ? '' : `, render delay ${Math.round(lcp.renderDelay)} ms`),
    );
}

/**
 * The element of a report's largest contentful paint: Lighthouse 13 names it in its LCP breakdown insight
 * (older versions in an audit of its own), with the time from the first byte to its paint.
 */
export function lcpElement(
  report: Report,
): { selector: string; label: string; renderDelay: number | undefined } | undefined {
  const lcp =
    report.audits['lcp-breakdown-insight']?.details ??
    report.audits['largest-contentful-paint-element']?.details;
  const text = JSON.stringify(lcp ?? null);
  const selector = text.match(/"selector":"((?:[^"\\]|\\.)*)"/)?.[1];
  const label = text.match(/"nodeLabel":"((?:[^"\\]|\\.)*)"/)?.[1];
  const delay = text.match(/"subpart":"elementRenderDelay"[^}]*"duration":([\d.]+)/)?.[1];
  if (!selector) return undefined;
  return { selector, label: label ?? '', renderDelay: delay === undefined ? undefined : Number(delay) };
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
    if (verdict === 'OVER') missed.push(`offline first paint ${median.toFixed(0)} ms`);
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
  const { server, origin } = await startServer();
  try {
    console.log(`load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores at the start`);
    // LIGHTHOUSE_ROUTES=/user,offline runs only those (the default is every route and the offline visit).
    const only = process.env.LIGHTHOUSE_ROUTES?.split(',');
    const wanted = (route: string) => !only || only.includes(route);
    const tier = process.env.LIGHTHOUSE_CPU as PhoneTier | undefined;
    if (tier && !(tier in PHONE_INDEX)) throw new Error(`LIGHTHOUSE_CPU=${tier}: mid or low`);
    if (tier) {
      const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
      try {
        const { rate, host } = await calibrateSlowdown(chrome.port, PHONE_INDEX[tier]);
        cpuSlowdown = rate;
        console.log(
          `CPU slowdown calibrated to a ${tier}-tier phone (BenchmarkIndex ${PHONE_INDEX[tier]}): ` +
            `${rate.toFixed(2)}x on this host (BenchmarkIndex ${Math.round(host)} unthrottled); Lighthouse's constant is 4x`,
        );
      } finally {
        chrome.kill();
      }
    }
    if (wanted('/home')) await lighthouseScores(`${origin}/home`, false);
    if (wanted('/market')) await lighthouseScores(`${origin}/market`, true);
    if (wanted('/user')) await lighthouseScores(`${origin}/user`, true);
    if (wanted('offline')) await offlineFirstPaint(origin);
    console.log(
      missed.length
        ? `issue 14's budgets missed in this run: ${missed.join('; ')}`
        : "issue 14's budgets: every one met on every route measured",
    );
    console.log(`load average ${loadavg()[0]?.toFixed(1)} at the end`);
  } finally {
    await server.close();
  }
}
