/**
 * Offline-first reads (issue 10), three figures:
 * (a) pull of 10,000 changes into IndexedDB: a member with 10,000 transfers (made through /api/sync/push in
 *     batches) on the in-process engine; a fresh device pulls them through the app's API client and sync
 *     engine into the device database (fake-indexeddb in Node: slower than a browser's). Goal <= 2 s.
 * (b) replica memory at 5,000 records: the heap a screen's read of 5,000 replicated transfers takes, and their
 *     size as stored JSON.
 * (c) offline cold start in Chromium: the production build (dist/, `vite build` first) served by vite
 *     preview, 5,000 transfers in the member's replica, the network off; time from navigation to the first
 *     record row on /order/transferRecord, median of 5 reloads. Goal <= 300 ms.
 */
import 'fake-indexeddb/auto';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { createClient } from '../src/api/client';
import type { Transport } from '../src/api/transport';
import { openDeviceDb } from '../src/sync/db';
import { readTables } from '../src/sync/live';
import { createSyncEngine } from '../src/sync/sync-engine';
import { fund, harness, signUp, type Session } from '../tests/engine/harness';

export const name = 'offline: replica pull, memory and offline cold start';

const PULLED = 10_000;
const RECORDS = 5_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function pullBench(): Promise<void> {
  const h = await harness();
  const alice: Session = await signUp(h, 'alice');
  const bob: Session = await signUp(h, 'bob');
  await fund(h, alice.id, String(PULLED + 100));
  await fund(h, bob.id, '5000');
  const vip = await h.call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, bob);
  if (vip.code !== 0) throw new Error(`VIP: ${vip.code} ${vip.msg}`);
  for (let i = 0; i < PULLED; i += 500) {
    const mutations = Array.from({ length: 500 }, (_, j) => ({
      id: `m${i + j}`,
      name: '/api/transfer/submit',
      args: { account: 'bob', amount: '1' },
    }));
    const r = await h.call('/api/sync/push', { clientId: 'bench', mutations }, alice);
    if (r.code !== 0) throw new Error(`push: ${r.code} ${r.msg}`);
  }
  const transport: Transport = { request: ({ signal: _s, ...req }) => h.engine.handle(req) };
  const api = createClient({
    transport: () => transport,
    credentials: () => ({ id: alice.id, token: alice.token }),
    onError: () => undefined,
  });
  const db = openDeviceDb('bench-offline-pull');
  const sync = createSyncEngine({
    api,
    db,
    online: { get: () => true, subscribe: () => () => undefined },
    member: () => alice.id,
  });
  const started = performance.now();
  const applied = await sync.pull();
  const ms = performance.now() - started;
  const rows = await db.replica.count();
  console.log(
    `pull into IndexedDB (fake-indexeddb)        ${applied} changes in ${ms.toFixed(0)} ms, ${rows} rows  (goal <= 2000 ms)`,
  );

  // (b) what a screen holds after reading 5,000 of them.
  const ids = (
    await db.replica.where('[memberId+table]').equals([alice.id, 'transfers']).primaryKeys()
  ).slice(RECORDS);
  await db.replica.bulkDelete(ids);
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const { tables } = await readTables(db, alice.id, ['transfers']);
  const after = process.memoryUsage().heapUsed;
  const list = tables.transfers ?? [];
  const bytes = Buffer.byteLength(JSON.stringify(list));
  console.log(
    `replica at ${list.length} records              ${(bytes / 1024).toFixed(0)} KiB as JSON, ` +
      `~${((after - before) / 1024 / 1024).toFixed(1)} MiB heap when read${globalThis.gc ? '' : ' (run with --expose-gc for a steadier figure)'}`,
  );
  db.close();
}

async function coldStartBench(): Promise<void> {
  if (!existsSync('dist/index.html') || !existsSync(CHROMIUM)) {
    console.log('offline cold start: skipped (needs dist/ from `vite build` and Chromium)');
    return;
  }
  const server = await preview({
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
    logLevel: 'warn',
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  const base = `http://127.0.0.1:${address.port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      locale: 'en-US',
      baseURL: base,
    });
    // The time the first record row is in the page, from navigation start.
    await context.addInitScript(`
      localStorage.setItem('strata.lang', 'en-US');
      new MutationObserver((_, observer) => {
        if (!window.shell && document.querySelector('.topbar-title')) window.shell = performance.now();
        if (document.querySelector('.record')) {
          window.firstRow = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    `);
    const page = await context.newPage();
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, {
      timeout: 60_000,
    });
    const memberId = '900001';
    // A plain script (the bench runs under tsx, whose helpers do not exist in the page).
    await page.evaluate(`(async () => {
      const memberId = ${JSON.stringify(memberId)};
      localStorage.setItem('strata.user', JSON.stringify({ id: memberId, token: 'bench', username: 'bench', vip: 'vip1', balance: '0' }));
      function open() {
        return new Promise((resolve, reject) => {
          const request = indexedDB.open('strata-device');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      }
      let db = await open();
      // The app creates the device database when its sync starts; wait for its stores.
      for (let i = 0; i < 100 && !db.objectStoreNames.contains('replica'); i++) {
        db.close();
        await new Promise((r) => setTimeout(r, 100));
        db = await open();
      }
      const tx = db.transaction(['replica', 'meta'], 'readwrite');
      const replica = tx.objectStore('replica');
      for (let i = 1; i <= ${RECORDS}; i++) {
        const id = String(i);
        // order: src/sync/db.ts replicaOrder (the index record lists read a page from).
        replica.put({ key: memberId + '|transfers|' + id, memberId, table: 'transfers', id, seq: i,
          order: 'n' + id.padStart(20, '0'), record: {
          id, direction: i % 2 ? 'out' : 'in', account: 'someone', from: 'bench', to: 'someone',
          amount: i + '.5', status: 'success', createdAt: 1780000000 + i } });
      }
      tx.objectStore('meta').put({ key: 'pulledAt:' + memberId, value: String(Date.now()) });
      await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
      db.close();
    })()`);
    await context.setOffline(true);
    const samples: number[] = [];
    const shells: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.goto('/order/transferRecord');
      await page.locator('.record').first().waitFor({ timeout: 30_000 });
      samples.push(Number(await page.evaluate('window.firstRow')));
      shells.push(Number(await page.evaluate('window.shell')));
    }
    const rows = await page.locator('.record').count();
    console.log(
      `offline cold start, ${RECORDS} records        first record row at ${median(samples).toFixed(0)} ms median ` +
        `(${samples.map((s) => s.toFixed(0)).join(', ')}), ${rows} rows shown  (goal <= 300 ms); ` +
        `the app shell itself at ${median(shells).toFixed(0)} ms median`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

export async function run(): Promise<void> {
  await pullBench();
  await coldStartBench();
}
