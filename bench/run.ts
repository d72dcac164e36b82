/**
 * `npm run bench`: runs every bench/*.bench.ts in turn (or those named on the command line) and lets each
 * print its own figures. A benchmark module exports `name` and `run(): Promise<void>`.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

interface BenchModule {
  name: string;
  run(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
  console.log(`\n## ${mod.name} (${file})`);
  const started = performance.now();
  await mod.run();
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
