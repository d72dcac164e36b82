/**
 * Engine throughput: internal transfers through the public `handle` (routing, zod, session, ledger, one
 * commit each) on memory and on IndexedDB (fake-indexeddb in Node), against one bare IndexedDB write
 * transaction per operation. Budget (ARCHITECTURE.md): >= 5,000 transfers/s on memory; IndexedDB within
 * 2x of the bare write transaction.
 */
import 'fake-indexeddb/auto';
import { fund, harness, signUp } from '../tests/engine/harness';
import { runInChromium } from './engine-browser';

export const name = 'engine: transfers per second and latency';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * Wall-clock rate, CPU-time rate (process CPU, so other processes on a shared machine do not count) and
 * per-operation latency percentiles.
 */
function report(label: string, samples: number[], wallMs: number, cpuMicros?: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const perSecond = (samples.length / wallMs) * 1000;
  const perCpuSecond = cpuMicros === undefined ? '-' : ((samples.length / cpuMicros) * 1e6).toFixed(0);
  console.log(
    `${label.padEnd(36)} ${String(samples.length).padStart(5)} ops  ${perSecond.toFixed(0).padStart(6)}/s wall  ` +
      `${perCpuSecond.padStart(6)}/s cpu  p50 ${percentile(sorted, 50).toFixed(3)} ms  ` +
      `p99 ${percentile(sorted, 99).toFixed(3)} ms`,
  );
  return percentile(sorted, 50);
}

function cpuNow(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function transfers(
  storage: string,
  count: number,
  between?: (i: number) => Promise<void>,
): Promise<number> {
  const h = await harness({ storage, seed: 5, config: { pbkdf2Iterations: 1_000 } });
  const alice = await signUp(h, 'alice');
  const bob = await signUp(h, 'bob');
  await fund(h, alice.id, '10000000');
  await fund(h, bob.id, '300000');
  const vip = await h.call('/api/Viplist/Buyvip', { level: 6, key: 'key1' }, bob);
  if (vip.code !== 0) throw new Error(`setup: ${vip.code} ${vip.msg}`);
  // warm-up (JIT, caches)
  for (let i = 0; i < 50; i++) await h.call('/api/transfer/submit', { account: 'bob', amount: '1' }, alice);
  const samples: number[] = [];
  const started = performance.now();
  const cpu = cpuNow();
  let otherWall = 0;
  let otherCpu = 0;
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const r = await h.call('/api/transfer/submit', { account: 'bob', amount: '1.5' }, alice);
    samples.push(performance.now() - t);
    if (r.code !== 0) throw new Error(`transfer ${i}: ${r.code} ${r.msg}`);
    if (between) {
      const [w, c] = [performance.now(), cpuNow()];
      await between(i);
      otherWall += performance.now() - w;
      otherCpu += cpuNow() - c;
    }
  }
  const wall = performance.now() - started - otherWall;
  const cpuUsed = cpuNow() - cpu - otherCpu;
  const problems = await h.engine.diagnostics.checkInvariants();
  if (problems.length > 0) throw new Error(`invariants broken: ${problems.join('; ')}`);
  await h.engine.close();
  return report(
    `transfer, ${storage === 'memory' ? 'memory' : 'IndexedDB (fake-indexeddb)'}`,
    samples,
    wall,
    cpuUsed,
  );
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * One readwrite transaction putting one small record, awaited to completion. Run interleaved with the
 * IndexedDB transfers so both see the same machine load (the bench machine is shared).
 */
async function bareWriter(): Promise<{ write(i: number): Promise<void>; samples: number[]; close(): void }> {
  const open = indexedDB.open('bench-bare', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('rows', { keyPath: 'id' });
  const db = await request(open);
  const samples: number[] = [];
  return {
    samples,
    write: async (i) => {
      const t = performance.now();
      const tx = db.transaction('rows', 'readwrite');
      tx.objectStore('rows').put({ id: String(i), amount: '1500000', at: i });
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      samples.push(performance.now() - t);
    },
    close: () => db.close(),
  };
}

export async function run(): Promise<void> {
  const memory = await transfers('memory', 5_000);
  const writer = await bareWriter();
  const idb = await transfers('bench-engine-idb', 2_000, writer.write);
  const bareWall = writer.samples.reduce((a, b) => a + b, 0);
  const bare = report('bare IndexedDB write transaction', writer.samples, bareWall);
  writer.close();
  console.log(`IndexedDB transfer p50 / bare write p50: ${(idb / bare).toFixed(2)}x`);
  console.log(
    `storage cost of a transfer (IndexedDB p50 - memory p50) / bare write p50: ${((idb - memory) / bare).toFixed(2)}x ` +
      '(budget <= 2x)',
  );

  const browser = await runInChromium(1_000);
  if (!browser) {
    console.log('Chromium not found: real-IndexedDB figures skipped');
    return;
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log('-- Chromium, real IndexedDB --');
  report('transfer, memory', browser.memory.transfers, sum(browser.memory.transfers));
  const bi = report('transfer, IndexedDB', browser.indexeddb.transfers, sum(browser.indexeddb.transfers));
  const bb = report(
    'bare IndexedDB write transaction',
    browser.indexeddb.writes,
    sum(browser.indexeddb.writes),
  );
  console.log(`IndexedDB transfer p50 / bare write p50: ${(bi / bb).toFixed(2)}x (budget <= 2x)`);
  console.log('(Chromium rounds performance.now() to 0.1 ms; rates come from the summed latencies)');
}
