/**
 * Sync replay (ARCHITECTURE.md budget: 10,000 queued mutations after reconnecting, replayed in <= 2.5 s on
 * loopback, 0 lost, 0 applied twice). 10,000 transfers of 1 USDT from alice to bob (VIP3) are queued, then
 * pushed in batches of 500 against the in-process engine on memory storage; then every batch is pushed
 * AGAIN (a device whose answers were lost) to show that nothing applies twice.
 */
import { fund, harness, signUp, type Harness, type Session } from '../tests/engine/harness';

export const name = 'sync: replaying 10,000 queued mutations';

const COUNT = 10_000;
const BATCH = 500;

interface Mutation {
  id: string;
  name: string;
  args: { account: string; amount: string };
}

async function setup(): Promise<{ h: Harness; alice: Session; bob: Session }> {
  const h = await harness({ storage: 'memory', seed: 5 });
  const alice = await signUp(h, 'alice');
  const bob = await signUp(h, 'bob');
  await fund(h, alice.id, String(COUNT + 100));
  await fund(h, bob.id, '2000');
  const vip = await h.call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, bob);
  if (vip.code !== 0) throw new Error(`setup: ${vip.code} ${vip.msg}`);
  return { h, alice, bob };
}

async function replay(h: Harness, alice: Session, queue: Mutation[]): Promise<Map<string, number>> {
  const codes = new Map<string, number>();
  for (let i = 0; i < queue.length; i += BATCH) {
    const r = await h.call(
      '/api/sync/push',
      { clientId: 'bench', mutations: queue.slice(i, i + BATCH) },
      alice,
    );
    if (r.code !== 0) throw new Error(`push: ${r.code} ${r.msg}`);
    for (const res of (r.data as { results: Array<{ id: string; code: number }> }).results)
      codes.set(res.id, res.code);
  }
  return codes;
}

export async function run(): Promise<void> {
  const { h, alice } = await setup();
  const queue: Mutation[] = Array.from({ length: COUNT }, (_, i) => ({
    id: `bench-${i}`,
    name: '/api/transfer/submit',
    args: { account: 'bob', amount: '1' },
  }));
  const started = performance.now();
  const codes = await replay(h, alice, queue);
  const ms = performance.now() - started;
  const again = performance.now();
  const repeat = await replay(h, alice, queue);
  const repeatMs = performance.now() - again;

  const transfers = ((await h.engine.diagnostics.snapshot())['transfers'] ?? []).length;
  const lost = queue.filter((m) => codes.get(m.id) !== 0).length;
  const changedOnRepeat = queue.filter((m) => repeat.get(m.id) !== codes.get(m.id)).length;
  const problems = await h.engine.diagnostics.checkInvariants();
  console.log(
    `in-process engine, memory: ${COUNT} mutations in ${ms.toFixed(0)} ms ` +
      `(${((COUNT / ms) * 1000).toFixed(0)}/s; budget <= 2500 ms), lost ${lost}, ` +
      `applied twice ${Math.max(0, transfers - COUNT)}`,
  );
  console.log(
    `  replayed again (answers lost): ${repeatMs.toFixed(0)} ms, answers changed ${changedOnRepeat}, ` +
      `transfers stored ${transfers}, invariants ${problems.length === 0 ? 'hold' : problems.join('; ')}`,
  );
  await h.engine.close();
}
