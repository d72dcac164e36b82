/**
 * Assembles an engine from options and a list of domains. `createEngine` (engine/index.ts) passes the
 * registry of engine/routes.ts; tests may add a test-only domain (e.g. a faucet) the same way.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonical } from './canonical';
import { resolveConfig } from './config';
import { resolveCounterparties } from './counterparties';
import type { Engine, EngineDiagnostics, EngineOptions } from './index';
import { checkInvariants, rebuildBalances } from './ledger/invariants';
import { createOperations } from './operations';
import { createRandom } from './random';
import type { Domain } from './routes';
import { Runtime, type Clock } from './runtime';
import { openStore } from './store';

const systemClock: Clock = { now: () => performance.timeOrigin + performance.now() };

export async function assembleEngine(options: EngineOptions, domains: readonly Domain[]): Promise<Engine> {
  const config = resolveConfig(options.config);
  const seed = options.seed ?? 1;
  const clock = options.clock ?? systemClock;
  const store = await openStore(options.storage, { onReplaced: options.onStorageReplaced });
  const counterparties = resolveCounterparties(config, {
    payments: options.payments,
    market: options.market,
    seed,
  });
  const runtime = new Runtime(
    store,
    config,
    clock,
    seed,
    createRandom(seed),
    domains,
    counterparties,
    options.entropy,
    options.hasher,
  );
  await runtime.init();

  const diagnostics: EngineDiagnostics = {
    checkInvariants: () => runtime.serial(() => checkInvariants(store)),
    rebuildBalances: () => runtime.serial(() => rebuildBalances(store)),
    stateHash: () =>
      runtime.serial(async () => {
        const parts: string[] = [];
        for (const table of await store.tables())
          parts.push(`${table}:${canonical(await store.scan(table))}`);
        return bytesToHex(sha256(utf8ToBytes(parts.join('\n'))));
      }),
    snapshot: () =>
      runtime.serial(async () => {
        const out: Record<string, unknown[]> = {};
        for (const table of await store.tables()) out[table] = await store.scan(table);
        return out;
      }),
    paths: () => runtime.router.paths(),
    routes: () => runtime.router.describe(),
  };

  return {
    handle: (request) => runtime.handle(request),
    settle: () => runtime.settle(),
    subscribe: (listener) => runtime.feed.subscribe(listener),
    diagnostics,
    operations: createOperations((fn) => runtime.operate(fn)),
    close: () => runtime.serial(() => store.close()),
  };
}
