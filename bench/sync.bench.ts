/**
 * Sync replay (ARCHITECTURE.md budget: 10,000 queued mutations after reconnecting, replayed in <= 2.5 s on
 * loopback, 0 lost, 0 applied twice). 10,000 transfers of 1 USDT from alice to bob (VIP3) are replayed:
 * (a) pushed in batches of 500 straight into the in-process engine on memory storage, then pushed AGAIN
 *     (a device whose answers were lost) to show that nothing applies twice;
 * (b) queued in the device outbox (src/sync, Dexie on fake-indexeddb) while offline, then flushed through the
 *     app's API client into the in-process engine: the device's whole path;
 * (c) the same device flush over HTTP to the reference server (server/, memory storage) on 127.0.0.1, with
 *     members funded through /api/demo/chain/send and settle; (d) the same with the server's SQL storage on
 *     PGlite (in memory), where every replayed mutation is one SQL transaction.
 */
import 'fake-indexeddb/auto';
import { createClient, type ApiClient } from '../src/api/client';
import { createHttpTransport } from '../src/api/http-transport';
import type { Transport } from '../src/api/transport';
import { openDeviceDb } from '../src/sync/db';
import { createSyncEngine } from '../src/sync/sync-engine';
import { manualClock, type Engine, type StoreAdapter } from '../engine/index';
import { startServer } from '../server/app';
import { pgliteDriver } from '../server/sql-driver';
import { SqlStore } from '../server/sql-store';
import { configFromEnv } from '../server/config';
import { fund, harness, harnessCalls, signUp, T0, type Harness, type Session } from '../tests/engine/harness';

export const name = 'sync: replaying 10,000 queued mutations';

const COUNT = 10_000;
const BATCH = 500;
const TRANSFER = { name: '/api/transfer/submit', args: { account: 'bob', amount: '1' } };

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Wall time, and this process's CPU time (the machine is shared; the HTTP server runs in this process too). */
function line(label: string, ms: number, cpu: number, lost: number, twice: number, extra = ''): void {
  console.log(
    `${label.padEnd(40)} ${COUNT} in ${ms.toFixed(0).padStart(5)} ms wall, ${cpu.toFixed(0).padStart(5)} ms cpu  ` +
      `${((COUNT / ms) * 1000).toFixed(0).padStart(6)}/s  ` +
      `lost ${lost}  applied twice ${twice}${extra}  (budget <= 2500 ms, 0, 0)`,
  );
}

async function counts(engine: Engine): Promise<{ transfers: number; problems: string[] }> {
  const transfers = ((await engine.diagnostics.snapshot())['transfers'] ?? []).length;
  return { transfers, problems: await engine.diagnostics.checkInvariants() };
}

async function pair(h: Harness): Promise<{ alice: Session; bob: Session }> {
  const alice = await signUp(h, 'alice');
  const bob = await signUp(h, 'bob');
  await fund(h, alice.id, String(COUNT + 100));
  await fund(h, bob.id, '2000');
  const vip = await h.call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, bob);
  if (vip.code !== 0) throw new Error(`setup: ${vip.code} ${vip.msg}`);
  return { alice, bob };
}

async function direct(): Promise<void> {
  const h = await harness({ storage: 'memory', seed: 5 });
  const { alice } = await pair(h);
  const queue = Array.from({ length: COUNT }, (_, i) => ({ id: `bench-${i}`, ...TRANSFER }));
  const replay = async () => {
    const codes = new Map<string, number>();
    for (let i = 0; i < queue.length; i += BATCH) {
      const r = await h.call(
        '/api/sync/push',
        { clientId: 'bench', mutations: queue.slice(i, i + BATCH) },
        alice,
      );
      if (r.code !== 0) throw new Error(`push: ${r.code} ${r.msg}`);
      for (const res of r.data.results) codes.set(res.id, res.code);
    }
    return codes;
  };
  let t = performance.now();
  const c = cpuMs();
  const codes = await replay();
  const ms = performance.now() - t;
  const cpu = cpuMs() - c;
  t = performance.now();
  const repeat = await replay();
  const repeatMs = performance.now() - t;
  const { transfers, problems } = await counts(h.engine);
  const lost = queue.filter((m) => codes.get(m.id) !== 0).length;
  line('(a) push, in-process engine, memory', ms, cpu, lost, Math.max(0, transfers - COUNT));
  const changed = queue.filter((m) => repeat.get(m.id) !== codes.get(m.id)).length;
  console.log(
    `    all pushed again (answers lost): ${repeatMs.toFixed(0)} ms, answers changed ${changed}, ` +
      `transfers ${transfers}, invariants ${problems.length === 0 ? 'hold' : problems.join('; ')}`,
  );
  await h.engine.close();
}

/** Queues COUNT transfers offline in a fresh device database, reconnects and flushes; answers the figures. */
async function device(label: string, api: ApiClient, memberId: string, engine: Engine): Promise<void> {
  let online = false;
  const listeners = new Set<() => void>();
  const db = openDeviceDb(`bench-device-${label.slice(1, 2)}`);
  await db.delete();
  await db.open();
  const sync = createSyncEngine({
    api,
    db,
    member: () => memberId,
    online: { get: () => online, subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) },
  });
  let t = performance.now();
  for (let i = 0; i < COUNT; i++) await sync.enqueue(TRANSFER.name, TRANSFER.args);
  const queueMs = performance.now() - t;
  online = true;
  t = performance.now();
  const c = cpuMs();
  const report = await sync.flush();
  const ms = performance.now() - t;
  const cpu = cpuMs() - c;
  const answers = await db.results.toArray();
  const { transfers, problems } = await counts(engine);
  const lost = COUNT - answers.filter((a) => a.code === 0).length + report.pending;
  line(
    label,
    ms,
    cpu,
    lost,
    Math.max(0, transfers - COUNT),
    problems.length ? ` INVARIANTS: ${problems.join('; ')}` : '',
  );
  console.log(`    (queueing them offline took ${queueMs.toFixed(0)} ms; outbox left ${report.pending})`);
  db.close();
}

function client(transport: Transport, session: Session): ApiClient {
  return createClient({
    transport: () => transport,
    credentials: () => ({ id: session.id, token: session.token }),
    onError: () => undefined,
    timeoutMs: 60_000,
  });
}

async function inProcessDevice(): Promise<void> {
  const h = await harness({ storage: 'memory', seed: 5 });
  const { alice } = await pair(h);
  const transport: Transport = { request: ({ signal: _s, ...request }) => h.engine.handle(request) };
  await device('(b) device outbox -> in-process engine', client(transport, alice), alice.id, h.engine);
  await h.engine.close();
}

async function overHttp(label: string, storage: StoreAdapter | 'memory'): Promise<void> {
  const clock = manualClock(T0);
  const config = { ...configFromEnv({ DEMO: 'true', PORT: '0', STORAGE: 'memory' }), settleEveryMs: 0 };
  const server = await startServer({
    config,
    storage,
    clock,
    engineConfig: { pbkdf2Iterations: 1_000 },
  });
  try {
    const transport = createHttpTransport(() => server.url);
    const calls = harnessCalls((request) =>
      transport.request({ ...request, method: request.method as 'GET' | 'POST' }),
    );
    const { call } = calls;
    const h: Harness = { engine: server.engine, clock, ...calls };
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    for (const [who, amount] of [
      [alice, String(COUNT + 100)],
      [bob, '2000'],
    ] as const) {
      const address = (await call('/api/recharge/address', { network: 'TRC20' }, who)).data;
      const sent = await call(
        '/api/demo/chain/send',
        { network: 'TRC20', address: address.address, amount },
        who,
      );
      if (sent.code !== 0) throw new Error(`chain send: ${sent.code} ${sent.msg}`);
    }
    clock.advance(5 * 60_000);
    await server.engine.settle();
    const vip = await call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, bob);
    if (vip.code !== 0) throw new Error(`setup: ${vip.code} ${vip.msg}`);
    await device(label, client(transport, alice), alice.id, server.engine);
  } finally {
    await server.close();
  }
}

export async function run(): Promise<void> {
  await direct();
  await inProcessDevice();
  await overHttp('(c) device outbox -> HTTP server, memory', 'memory');
  // PGlite (PostgreSQL in WebAssembly) in memory: one SQL transaction per replayed mutation.
  await overHttp('(d) device outbox -> HTTP server, PGlite', await SqlStore.open(await pgliteDriver()));
}
