/**
 * The documented production install (docs/DEPLOY.md "Build and install": `npm ci --omit=dev`, then
 * `npm run server:start` / `npm run signer`) on a machine whose own Node is older than 24: npm scripts run on
 * the project's Node 24 because the `node` package is a runtime dependency (its binary is
 * node_modules/.bin/node, first on a script's PATH), and a start that bypasses npm with an older `node` stops
 * at once with "Node 24 required" (server/node-version.mjs, preloaded first by every start script).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Lock {
  packages: Record<string, { version?: string; dev?: boolean; dependencies?: Record<string, string> }>;
}
interface Pkg {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Pkg;
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;
const REQUIRED = Number(/\d+/.exec(pkg.engines.node)?.[0]);

/** A `node` on PATH, outside this project, older than the project's Node (Debian's is 20 on CI machines). */
function olderNode(): string | undefined {
  const own = resolve('node_modules/.bin');
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (dir === '' || resolve(dir) === own || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (Number(version.split('.')[0]) < REQUIRED) return candidate;
  }
  return undefined;
}

describe('Node version of the production install', () => {
  it('Node 24 is a runtime dependency, so npm ci --omit=dev installs it, and every start script preloads the check first', () => {
    expect(REQUIRED).toBe(24);
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe(String(REQUIRED));
    expect(pkg.dependencies['node']).toMatch(new RegExp(`^\\^${REQUIRED}\\.`));
    expect(pkg.devDependencies['node']).toBeUndefined();
    // What --omit=dev leaves out is what the lock marks dev: neither the package nor its installer.
    const node = lock.packages['node_modules/node'];
    expect(node?.version?.split('.')[0]).toBe(String(REQUIRED));
    expect(node?.dev).toBeUndefined();
    for (const dep of Object.keys(node?.dependencies ?? {})) {
      expect(lock.packages[`node_modules/${dep}`]?.dev, dep).toBeUndefined();
    }
    for (const script of ['server:start', 'server', 'signer', 'admin:create']) {
      expect(pkg.scripts[script], script).toMatch(
        /^node --import \.\/(dist-server|server)\/node-version\.mjs /,
      );
    }
    expect(pkg.scripts['build:server']).toContain('server/node-version.mjs');
  });

  it('npm scripts run on the Node 24 of node_modules/.bin', () => {
    const version = execFileSync('npm', ['exec', '--offline', '--', 'node', '-p', 'process.versions.node'], {
      encoding: 'utf8',
    }).trim();
    expect(Number(version.split('.')[0])).toBe(REQUIRED);
  });

  const older = olderNode();
  it.skipIf(older === undefined)(
    `an older node (${older ?? 'none on PATH'}) started like server:start or the signer says "Node 24 required" and exits 1`,
    () => {
      for (const args of [
        [
          '--import',
          './server/node-version.mjs',
          '--import',
          './server/source-maps.mjs',
          '-e',
          'console.log("ran")',
        ],
        ['--import', './server/node-version.mjs', '--import', 'tsx', 'server/signer/main.ts'],
      ]) {
        const run = spawnSync(older as string, args, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
        expect(run.status, run.stderr).toBe(1);
        expect(run.stderr).toMatch(/^Node 24 required: this is Node \d+\./);
        expect(run.stdout).toBe('');
      }
    },
  );

  it('the check lets the project Node through', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', './server/node-version.mjs', '-e', 'console.log("ran")'],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stdout).toBe('ran\n');
    expect(run.status).toBe(0);
  });
});
