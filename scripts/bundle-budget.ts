/**
 * Checks the build against ARCHITECTURE.md's budgets and fails it on any breach:
 * - the gzip size of the JavaScript /home needs before it is interactive (the entry chunk and its static
 *   imports, found by following index.html's module graph) <= 200 KiB;
 * - each on-demand locale chunk (assets/locale-<lang>-*.js, named in vite.config.ts) <= 10 KiB gzip;
 * - the K-line chart chunk (assets/chart-*.js) <= 60 KiB gzip;
 * - the service worker precaches the shell (index.html) and none of those on-demand chunks.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const KIB = 1024;
const BUDGET = { homeInitial: 200 * KIB, locale: 10 * KIB, chart: 60 * KIB };
const dist = 'dist';
const assets = join(dist, 'assets');
const failures: string[] = [];

function gz(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

const kib = (n: number) => (n / KIB).toFixed(1);

/** Static imports of an ES module chunk (not dynamic `import()`), resolved within dist/assets. */
function staticImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const found = new Set<string>();
  const re = /(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g;
  for (const m of src.matchAll(re)) if (m[1]) found.add(join(assets, m[1]));
  return [...found];
}

function homeInitialJs(): void {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]+src="\/?([^"]+\.js)"/g)].map((m) => join(dist, m[1] ?? ''));
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+\.js)"/g)].map((m) =>
    join(dist, m[1] ?? ''),
  );
  const seen = new Set<string>();
  const queue = [...entries, ...preloads];
  while (queue.length) {
    const f = queue.pop();
    if (!f || seen.has(f) || !existsSync(f)) continue;
    seen.add(f);
    queue.push(...staticImports(f));
  }
  let total = 0;
  for (const f of seen) total += gz(f);
  console.log(
    `bundle: /home initial JS ${kib(total)} KiB gzip in ${seen.size} files (budget ${kib(BUDGET.homeInitial)} KiB)`,
  );
  if (total > BUDGET.homeInitial)
    failures.push(`/home initial JS over budget by ${kib(total - BUDGET.homeInitial)} KiB`);
}

function lazyChunks(all: string[]): void {
  const locales = all.filter((f) => /^locale-[\w-]+-[\w-]+\.js$/.test(f));
  let largest = { file: '-', size: 0 };
  for (const f of locales) {
    const size = gz(join(assets, f));
    if (size > largest.size) largest = { file: f, size };
    if (size > BUDGET.locale) failures.push(`locale chunk ${f} is ${kib(size)} KiB gzip (budget 10 KiB)`);
  }
  console.log(
    `bundle: ${locales.length} locale chunks, largest ${largest.file} ${kib(largest.size)} KiB gzip (budget ${kib(BUDGET.locale)} KiB each)`,
  );
  const charts = all.filter((f) => /^chart-[\w-]+\.js$/.test(f));
  for (const f of charts) {
    const size = gz(join(assets, f));
    console.log(`bundle: chart chunk ${f} ${kib(size)} KiB gzip (budget ${kib(BUDGET.chart)} KiB)`);
    if (size > BUDGET.chart) failures.push(`chart chunk ${f} over budget by ${kib(size - BUDGET.chart)} KiB`);
  }
  if (charts.length === 0) console.log('bundle: no chart chunk yet');
}

function serviceWorkerPrecache(): void {
  const sw = join(dist, 'sw.js');
  if (!existsSync(sw)) {
    failures.push('dist/sw.js is missing: the PWA plugin did not run');
    return;
  }
  const urls = [...readFileSync(sw, 'utf8').matchAll(/\{url:"([^"]+)",revision:/g)].map((m) => m[1] ?? '');
  console.log(`bundle: service worker precaches ${urls.length} files`);
  if (!urls.includes('index.html')) failures.push('the service worker does not precache index.html');
  const lazy = urls.filter((u) => /^assets\/(locale-|chart-)/.test(u));
  if (lazy.length) failures.push(`on-demand chunks must not be precached: ${lazy.join(', ')}`);
}

homeInitialJs();
const all = readdirSync(assets).filter((f) => f.endsWith('.js'));
let allTotal = 0;
for (const f of all) allTotal += gz(join(assets, f));
console.log(`bundle: all JS ${kib(allTotal)} KiB gzip in ${all.length} files`);
lazyChunks(all);
serviceWorkerPrecache();

if (failures.length) {
  for (const f of failures) console.error(`bundle: ${f}`);
  process.exit(1);
}
