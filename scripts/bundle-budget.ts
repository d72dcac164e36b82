/**
 * Reports the gzip size of the JavaScript that /home needs before it is interactive (the entry chunk and
 * its static imports, read from Vite's manifest-free output by following index.html's module graph) and
 * fails the build when it exceeds ARCHITECTURE.md's budget.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const BUDGET_KIB = 200;
const dist = 'dist';

function gz(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** Static imports of an ES module chunk (not dynamic `import()`), resolved within dist/assets. */
function staticImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const found = new Set<string>();
  const re = /(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g;
  for (const m of src.matchAll(re)) if (m[1]) found.add(join(dist, 'assets', m[1]));
  return [...found];
}

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
const all = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
let allTotal = 0;
for (const f of all) allTotal += gz(join(dist, 'assets', f));

const kib = (n: number) => (n / 1024).toFixed(1);
console.log(
  `bundle: /home initial JS ${kib(total)} KiB gzip in ${seen.size} files (budget ${BUDGET_KIB} KiB)`,
);
console.log(`bundle: all JS ${kib(allTotal)} KiB gzip in ${all.length} files`);
if (total > BUDGET_KIB * 1024) {
  console.error(`bundle: over budget by ${kib(total - BUDGET_KIB * 1024)} KiB`);
  process.exit(1);
}
