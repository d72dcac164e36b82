/**
 * The production start for the benches' server instances: `npm run build:server` (dist-server/main.js,
 * its hash worker and source-map preload), then the bench's own entry compiled with build:server's esbuild
 * settings into dist-server/ (so it finds hash-worker.mjs as main.js does), started with the Node flags of
 * `npm run server:start` (package.json), which docs/DEPLOY.md tells operators to run. BENCH_TSX=1 runs the
 * entry under tsx instead; BENCH_NODE_FLAGS replaces the production flags (to compare them).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { build } from 'esbuild';

/** The Node flags of `npm run server:start` (`node <flags> dist-server/main.js`). */
export function productionFlags(): string[] {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  const words = (pkg.scripts['server:start'] ?? '').split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist-server/main.js')
    throw new Error(
      'server:start is no longer `node <flags> dist-server/main.js`: update bench/server/compile.ts',
    );
  return words.slice(1, -1);
}

export const underTsx = (): boolean => process.env['BENCH_TSX'] === '1';

/** Node's arguments to start `entry` (a bench/ TypeScript file): compiled, or under tsx (BENCH_TSX=1). */
export async function instanceCommand(entry: string): Promise<string[]> {
  if (underTsx()) return ['--import', 'tsx', entry];
  const built = spawnSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`npm run build:server failed (${built.status})`);
  const outfile = `dist-server/bench-${basename(entry, '.ts')}.js`;
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node24',
    sourcemap: true,
    outfile,
    logLevel: 'warning',
  });
  const flags = process.env['BENCH_NODE_FLAGS']?.split(/\s+/).filter(Boolean) ?? productionFlags();
  return [...flags, outfile];
}
