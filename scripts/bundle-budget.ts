/**
 * Checks the build against ARCHITECTURE.md's budgets and fails it on any breach: /home's critical path
 * (BUDGET.homeCritical: the JavaScript /home fetches before its load event, zh-CN's locale parts included),
 * the first-data path of /home in demo mode (FIRST_DATA_PATHS: up to the first quote row, the engine worker
 * included; /market, /user and /order/transferRecord printed beside it), each on-demand locale chunk, the
 * K-line chart chunk, and that the service worker precaches the shell and none of those chunks. Each
 * module's share is printed (build-report/modules.json, scripts/vite-bundle-report.ts). The budgets'
 * figures and history: docs/PWA.md "Budgets and figures" and "The data path and its budget".
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { MODULES_JSON, type ChunkEntry } from './vite-bundle-report.ts';
import { START_PARTS } from '../src/i18n/parts.ts';

const KIB = 1024;
/** The demo engine's worker (emitted as assets/engine.worker-<hash>.js, outside build-report's chunks). */
const ENGINE_WORKER = 'src/worker/engine.worker.ts';
export const BUDGET = { homeCritical: 131.5 * KIB, locale: 10 * KIB, chart: 60 * KIB };

/**
 * The first-data path (issue 25, docs/PWA.md "The data path and its budget"): the JavaScript a route needs up
 * to its first real data row: index.html's entry and modulepreloads, the route's screen chunk, the modules
 * that produce the data (loaded lazily: the quotes card; in demo mode the engine worker, whose file and its
 * own imports are counted whole) and everything they import statically, plus the route's start locale parts
 * (zh-CN). A chunk that only one of these loads with `import()` is not counted; `npm run bench -- first-data`
 * prints what the page really fetched before its first data, to check this list against.
 * `budget` (gzip bytes) fails the build when the path grows past it; routes without one are printed only.
 */
export const FIRST_DATA_PATHS: readonly {
  route: string;
  screen: string;
  data: readonly string[];
  budget?: number;
}[] = [
  {
    route: '/home',
    screen: 'src/features/home/HomePage.tsx',
    data: ['src/ui/QuotesSummary.tsx', ENGINE_WORKER],
    budget: 301 * KIB,
  },
  {
    route: '/market',
    screen: 'src/features/market/MarketPage.tsx',
    data: [ENGINE_WORKER],
  },
  {
    route: '/user',
    screen: 'src/features/assets/AssetsPage.tsx',
    data: [ENGINE_WORKER],
  },
  {
    route: '/order/transferRecord',
    screen: 'src/features/records/TransferRecordsPage.tsx',
    data: [ENGINE_WORKER],
  },
];
/** The module whose chunk is /home's screen (src/app/routes.tsx loads it lazily, main.tsx preloads it). */
const HOME_SCREEN = 'src/features/home/HomePage.tsx';
const MEASURED_LANGUAGE = 'zh-CN';
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

function closure(start: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const f = queue.pop();
    if (!f || seen.has(f) || !existsSync(f)) continue;
    seen.add(f);
    queue.push(...staticImports(f));
  }
  return seen;
}

function readChunks(): ChunkEntry[] {
  if (!existsSync(MODULES_JSON)) return [];
  return JSON.parse(readFileSync(MODULES_JSON, 'utf8')) as ChunkEntry[];
}

/** index.html's entry and modulepreloads (those the starter script adds after the first paint included). */
function entryFiles(html: string): string[] {
  return [
    ...[...html.matchAll(/<script[^>]+src="\/?([^"]+\.js)"/g)].map((m) => m[1] ?? ''),
    // The entry started after the first paint (scripts/vite-shell.ts).
    ...[...html.matchAll(/<script[^>]+data-entry="\/?([^"]+\.js)"/g)].map((m) => m[1] ?? ''),
    ...[...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+\.js)"/g)].map((m) => m[1] ?? ''),
    // ... and the modulepreloads it adds then.
    ...[...html.matchAll(/<script[^>]+data-preload="([^"]*)"/g)].flatMap((m) =>
      (m[1] ?? '')
        .split(' ')
        .filter(Boolean)
        .map((f) => f.replace(/^\//, '')),
    ),
  ];
}

/** The chunk files that hold `module` (the engine worker: its emitted file). */
function chunkFilesOf(chunks: ChunkEntry[], module: string): string[] {
  if (module === ENGINE_WORKER)
    return readdirSync(assets)
      .filter((f) => /^engine\.worker-[\w-]+\.js$/.test(f))
      .map((f) => join('assets', f));
  return chunks.filter((c) => c.modules.some((m) => m.id === module)).map((c) => c.file);
}

/** The start locale parts of `route` in the measured language, as the head script preloads them. */
function localeParts(html: string, route: string): string[] {
  // The head script's preload map (scripts/vite-locale-parts.ts) names the active language's parts.
  const map = html.match(/var m=(\{.*?\});var s=/)?.[1];
  const byPart = map
    ? ((JSON.parse(map) as Record<string, Record<string, string>>)[MEASURED_LANGUAGE] ?? {})
    : {};
  if (!map) failures.push('index.html has no locale-part map');
  return Object.entries(byPart)
    .filter(([part]) => (START_PARTS[route] as readonly string[] | undefined)?.includes(part) ?? true)
    .map(([, file]) => join(dist, file.replace(/^\//, '')));
}

/** The files /home fetches before its load event (see the header). */
export function homeCriticalFiles(chunks: ChunkEntry[]): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const start = [...entryFiles(html), ...chunkFilesOf(chunks, HOME_SCREEN)].map((f) => join(dist, f));
  if (!/<script[^>]+(?:src|data-entry)="[^"]+\.js"/.test(html))
    failures.push('index.html names no entry module');
  if (!chunks.some((c) => c.modules.some((m) => m.id === HOME_SCREEN)))
    failures.push(`no chunk holds ${HOME_SCREEN}: build-report/modules.json is missing or stale`);
  const files = closure(start);
  for (const p of localeParts(html, '/home')) files.add(p);
  return [...files];
}

/** The files of a route's first-data path (FIRST_DATA_PATHS). */
export function firstDataFiles(chunks: ChunkEntry[], path: (typeof FIRST_DATA_PATHS)[number]): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const start = [...entryFiles(html)];
  for (const module of [path.screen, ...path.data]) {
    const found = chunkFilesOf(chunks, module);
    if (found.length === 0) failures.push(`first-data path ${path.route}: no chunk holds ${module}`);
    start.push(...found);
  }
  const files = closure(start.map((f) => join(dist, f)));
  for (const p of localeParts(html, path.route)) files.add(p);
  return [...files];
}

/**
 * Each module's share of the critical path: a module's gzip size alone overstates it (gzip shares context
 * within a chunk), so the chunk's real gzip size is divided among its modules in proportion.
 */
function printShares(files: string[], chunks: ChunkEntry[], total: number): void {
  const byFile = new Map(chunks.map((c) => [join(dist, c.file), c]));
  const shares = new Map<string, number>();
  for (const f of files) {
    const chunk = byFile.get(f);
    const size = gz(f);
    const alone = chunk?.modules.reduce((s, m) => s + m.gzip, 0) ?? 0;
    if (!chunk || alone === 0) {
      shares.set(f, (shares.get(f) ?? 0) + size);
      continue;
    }
    for (const m of chunk.modules) {
      // node_modules/<pkg>/… and node_modules/@scope/<pkg>/… count as one package; app modules one by one.
      const pkg = m.id.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
      const key = pkg ? `${pkg} (package)` : m.id;
      shares.set(key, (shares.get(key) ?? 0) + (m.gzip / alone) * size);
    }
  }
  const rows = [...shares].sort((a, b) => b[1] - a[1]);
  const shown = rows.slice(0, 25);
  for (const [id, size] of shown)
    console.log(
      `bundle:   ${kib(size).padStart(6)} KiB ${((size / total) * 100).toFixed(1).padStart(5)}%  ${id}`,
    );
  const rest = rows.slice(shown.length).reduce((s, [, size]) => s + size, 0);
  if (rest > 0)
    console.log(`bundle:   ${kib(rest).padStart(6)} KiB in ${rows.length - shown.length} more modules`);
}

function homeCritical(chunks: ChunkEntry[]): void {
  const files = homeCriticalFiles(chunks);
  let total = 0;
  for (const f of files) total += gz(f);
  console.log(
    `bundle: /home critical path ${kib(total)} KiB gzip in ${files.length} files (${MEASURED_LANGUAGE}; budget ${kib(BUDGET.homeCritical)} KiB); by module (treemap: build-report/treemap.html):`,
  );
  printShares(files, chunks, total);
  if (total > BUDGET.homeCritical)
    failures.push(`/home critical path over budget by ${kib(total - BUDGET.homeCritical)} KiB`);
}

function firstDataPaths(chunks: ChunkEntry[]): void {
  for (const path of FIRST_DATA_PATHS) {
    const files = firstDataFiles(chunks, path);
    const total = files.reduce((sum, f) => sum + gz(f), 0);
    const budget = path.budget === undefined ? 'no budget' : `budget ${kib(path.budget)} KiB`;
    console.log(
      `bundle: first-data path ${path.route} (demo) ${kib(total)} KiB gzip in ${files.length} files (${MEASURED_LANGUAGE}; ${budget})`,
    );
    if (path.route === '/home') printShares(files, chunks, total);
    if (path.budget !== undefined && total > path.budget)
      failures.push(`first-data path ${path.route} over budget by ${kib(total - path.budget)} KiB`);
  }
}

function lazyChunks(all: string[]): void {
  // The fallback language's parts (precached, fallback-en-US-*) are locale chunks too.
  const locales = all.filter((f) => /^(?:locale|fallback)-[\w-]+-[\w-]+\.js$/.test(f));
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

const chunks = readChunks();
homeCritical(chunks);
firstDataPaths(chunks);
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
