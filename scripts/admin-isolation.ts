/**
 * After `npm run build`: the back-office console is built (dist/admin.html and its entry) and stays out of
 * the member app (issue 12 item 3):
 * - the service worker precaches no admin file (admin.html, assets/admin-*);
 * - no precached chunk holds a console module (src/admin/…, locales/<lang>/admin.json), per
 *   build-report/modules.json (scripts/vite-bundle-report.ts);
 * - index.html names no admin file, and admin.html names neither the member entry nor the manifest;
 * - the navigation fallback's denylist covers /admin.
 * Run with `tsx scripts/admin-isolation.ts` (part of `npm run build`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODULES_JSON, type ChunkEntry } from './vite-bundle-report.ts';

const dist = 'dist';
const failures: string[] = [];
const ADMIN_MODULE = /^(src\/admin\/|locales\/[\w-]+\/admin\.json)/;

function read(file: string): string {
  const path = join(dist, file);
  if (!existsSync(path)) {
    failures.push(`${path} is missing`);
    return '';
  }
  return readFileSync(path, 'utf8');
}

const sw = read('sw.js');
const precached = [...sw.matchAll(/\{url:"([^"]+)",revision:/g)].map((m) => m[1] ?? '');
const adminPrecached = precached.filter((u) => /(^|\/)admin[-.]/.test(u));
if (adminPrecached.length)
  failures.push(`the service worker precaches admin files: ${adminPrecached.join(', ')}`);
if (!/denylist:\[[^\n]*\\\/admin/.test(sw))
  failures.push('the service worker has no /admin entry in its navigation fallback denylist');

const chunks: ChunkEntry[] = existsSync(MODULES_JSON)
  ? (JSON.parse(readFileSync(MODULES_JSON, 'utf8')) as ChunkEntry[])
  : [];
if (chunks.length === 0) failures.push(`${MODULES_JSON} is missing: run the build first`);
const adminChunks = chunks.filter((c) => c.modules.some((m) => ADMIN_MODULE.test(m.id)));
for (const chunk of adminChunks) {
  if (precached.includes(chunk.file)) failures.push(`precached chunk ${chunk.file} holds console modules`);
  if (!/^assets\/admin-/.test(chunk.file))
    failures.push(`console chunk ${chunk.file} is not named assets/admin-*`);
}

const index = read('index.html');
if (/assets\/admin-|admin\.html/.test(index)) failures.push('index.html names an admin file');
const admin = read('admin.html');
if (!/<script type="module"[^>]+src="\/assets\/admin-[^"]+\.js"/.test(admin))
  failures.push('admin.html has no assets/admin-*.js entry');
if (/rel="manifest"/.test(admin)) failures.push('admin.html links the member manifest');

console.log(
  `admin: ${adminChunks.length} console chunks (${adminChunks.map((c) => c.file).join(', ') || 'none'}); ` +
    `${precached.length} precached files, ${adminPrecached.length} of them admin`,
);
if (failures.length) {
  for (const f of failures) console.error(`admin: ${f}`);
  process.exit(1);
}
