/**
 * The engine bench in real Chromium (Debian's /usr/bin/chromium through playwright-core): the same
 * transfers on real IndexedDB, interleaved with bare IndexedDB write transactions, so the storage budget is
 * measured where members run it rather than on fake-indexeddb. Skipped when Chromium is absent.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Runs inside the page: returns latency samples (ms) per kind. */
const ENTRY = `
import { fund, harness, signUp } from './tests/engine/harness';

async function bare(db, i) {
  const tx = db.transaction('rows', 'readwrite', { durability: 'relaxed' });
  tx.objectStore('rows').put({ id: String(i), amount: '1500000', at: i });
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = reject; });
}

async function openBare() {
  const req = indexedDB.open('bench-bare', 1);
  req.onupgradeneeded = () => req.result.createObjectStore('rows', { keyPath: 'id' });
  return new Promise((resolve, reject) => { req.onsuccess = () => resolve(req.result); req.onerror = reject; });
}

window.runBench = async (storage, count) => {
  const h = await harness({ storage, seed: 5, config: { pbkdf2Iterations: 1000 } });
  const alice = await signUp(h, 'alice');
  const bob = await signUp(h, 'bob');
  await fund(h, alice.id, '10000000');
  await fund(h, bob.id, '300000');
  await h.call('/api/Viplist/Buyvip', { level: 6, key: 'key1' }, bob);
  const db = await openBare();
  for (let i = 0; i < 50; i++) {
    await h.call('/api/transfer/submit', { account: 'bob', amount: '1' }, alice);
    await bare(db, -i);
  }
  const transfers = [];
  const writes = [];
  for (let i = 0; i < count; i++) {
    let t = performance.now();
    const r = await h.call('/api/transfer/submit', { account: 'bob', amount: '1.5' }, alice);
    transfers.push(performance.now() - t);
    if (r.code !== 0) throw new Error('transfer ' + r.code + ' ' + r.msg);
    t = performance.now();
    await bare(db, i);
    writes.push(performance.now() - t);
  }
  const problems = await h.engine.diagnostics.checkInvariants();
  if (problems.length) throw new Error(problems.join('; '));
  db.close();
  return { transfers, writes };
};
`;

export interface BrowserSamples {
  memory: { transfers: number[]; writes: number[] };
  indexeddb: { transfers: number[]; writes: number[] };
}

export async function runInChromium(count: number): Promise<BrowserSamples | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'ts', sourcefile: 'bench-entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const js = bundle.outputFiles[0]?.text ?? '';
  const server = createServer((req, res) => {
    if (req.url === '/bench.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    } else {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script type="module" src="/bench.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => 'runBench' in window);
    type Run = (storage: string, count: number) => Promise<{ transfers: number[]; writes: number[] }>;
    const memory = await page.evaluate(
      (n: number) => (window as unknown as { runBench: Run }).runBench('memory', n),
      count * 2,
    );
    const indexeddb = await page.evaluate(
      (n: number) => (window as unknown as { runBench: Run }).runBench('bench-idb', n),
      count,
    );
    return { memory, indexeddb };
  } finally {
    await browser.close();
    server.close();
  }
}
