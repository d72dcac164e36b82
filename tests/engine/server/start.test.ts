/**
 * The production start (docs/DEPLOY.md): `npm run build:server` compiles server/ and engine/ to
 * dist-server/main.js, which runs on plain node (no tsx) with the Node flags of `npm run server:start` and
 * answers the wire contract; SIGTERM stops it with exit code 0. The development command runs as ONE process (node --import tsx, no tsx child left
 * behind), so a signal reaches the server itself.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Started {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/** Starts a server process and waits for its "listening" log line (pino JSON on stdout). */
function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env['PATH'] ?? '',
      STORAGE: 'memory',
      PORT: '0',
      DEMO: 'true',
      SETTLE_EVERY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no start within 30 s:\n${out}`));
    }, 30_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1], exited });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening:\n${out}`));
    });
  });
}

function childrenOf(pid: number): string[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim() !== '');
  } catch {
    return []; // ps exits 1 when there is none
  }
}

/** The Node flags of `npm run server:start` (`node <flags> dist-server/main.js`). */
function productionFlags(scripts: Record<string, string>): string[] {
  const words = (scripts['server:start'] ?? '').split(/\s+/);
  expect(words[0]).toBe('node');
  expect(words.at(-1)).toBe('dist-server/main.js');
  return words.slice(1, -1);
}

describe('server start', () => {
  it('the compiled server (npm run build:server, npm run server:start) answers getsite and stops on SIGTERM', async () => {
    execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'ignore' });
    expect(existsSync('dist-server/main.js')).toBe(true);
    // Plain JavaScript importing only packages: nothing for tsx to do, and nothing from devDependencies.
    const bundle = readFileSync('dist-server/main.js', 'utf8');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    const imported = new Set(
      [...bundle.matchAll(/from "([^"./][^"]*)"/g)]
        .map((m) => m[1] ?? '')
        .filter((name) => !name.startsWith('node:'))
        .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0])),
    );
    for (const name of imported) expect(pkg.dependencies, name).toHaveProperty([name as string]);
    // Nor the app's browser-only packages (docs/SERVER.md "Memory": Dexie came with engine/index.ts).
    for (const name of ['dexie', 'react', 'react-dom', 'i18next', 'lightweight-charts', 'fake-indexeddb'])
      expect(imported.has(name), name).toBe(false);

    // The memory settings and the source-map preload (docs/SERVER.md "Memory") are flags Node accepts.
    const flags = productionFlags(pkg.scripts);
    expect(existsSync('dist-server/source-maps.mjs')).toBe(true);
    const server = await start([...flags, 'dist-server/main.js']);
    try {
      const site = (await (await fetch(`${server.url}/api/site/getsite`)).json()) as {
        code: number;
        data: { demo: boolean };
      };
      expect(site).toMatchObject({ code: 0, data: { demo: true } });
      const headers = (await fetch(`${server.url}/api/site/getsite`)).headers;
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(headers.get('strict-transport-security')).toBeNull();
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('an idle instance collects its heap and gives the pages back, once per busy-then-idle turn (server/idle-gc.ts)', async () => {
    execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'ignore' });
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    const server = await start([...productionFlags(pkg.scripts), 'dist-server/main.js'], {
      IDLE_GC_MS: '200',
      LOG_LEVEL: 'debug',
    });
    let out = '';
    server.child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    /** The 'idle: heap collected' log lines so far. */
    const collected = () =>
      out
        .split('\n')
        .filter((line) => line.includes('"idle: heap collected"'))
        .map((line) => JSON.parse(line) as { rssBefore: number; rssAfter: number; ms: number });
    const until = async (count: number) => {
      while (collected().length < count)
        await new Promise<void>((resolve) => server.child.stdout?.once('data', () => resolve()));
    };
    try {
      // The start-up's garbage first, then a request's: each turn from busy to idle collects once.
      await until(1);
      expect((await (await fetch(`${server.url}/api/site/getsite`)).json()) as object).toMatchObject({
        code: 0,
      });
      await until(2);
      const [, second] = collected();
      expect(second?.rssAfter).toBeGreaterThan(0);
      expect(second?.ms).toBeGreaterThanOrEqual(0);
      // A balancer's probes are not work: probed every 20 ms (a tenth of the idle period), the instance still
      // falls idle after a request and collects; were probes counted, it never would (the test times out).
      let probing = true;
      const probes = (async () => {
        while (probing) {
          expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      await fetch(`${server.url}/api/site/getsite`);
      await until(3);
      probing = false;
      await probes;
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 60_000);

  it("the production start's source-map preload maps the server's own code, not node_modules'", () => {
    const support = execFileSync(
      process.execPath,
      [
        '--import',
        './server/source-maps.mjs',
        '--input-type=module',
        '-e',
        "import { getSourceMapsSupport } from 'node:module'; console.log(JSON.stringify(getSourceMapsSupport()))",
      ],
      { encoding: 'utf8' },
    );
    // --enable-source-maps would load (and keep) every dependency's map too: ~20 MB of heap.
    expect(JSON.parse(support)).toEqual({ enabled: true, nodeModules: false, generatedCode: false });
  });

  it('the development command is one process: SIGTERM reaches the server, which exits 0', async () => {
    const server = await start(['--import', 'tsx', 'server/main.ts', '--dev']);
    // tsx's loader keeps an esbuild transform service as its only child (it ends with its parent's pipe):
    // no second node process that a signal would miss.
    const helpers = childrenOf(server.child.pid as number);
    try {
      expect(helpers.filter((line) => !/\besbuild$/.test(line))).toEqual([]);
      expect((await (await fetch(`${server.url}/api/site/getsite`)).json()) as object).toMatchObject({
        code: 0,
      });
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    for (const line of helpers) {
      const pid = Number(line.trim().split(/\s+/)[0]);
      await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    }
  }, 60_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
