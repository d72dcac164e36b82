/**
 * A real engine for the sync tests: every domain, a sync domain that may also replay this file's test-only
 * calls, a faucet, and a crash switch (a commit hook that throws once, as a power cut at commit would).
 */
import { assembleEngine } from '../../engine/engine';
import { fail } from '../../engine/errors';
import { manualClock } from '../../engine/index';
import { acct, USDT } from '../../engine/ledger/accounts';
import { balanceId, balances } from '../../engine/ledger/tables';
import { handler } from '../../engine/router';
import { domains, type Domain } from '../../engine/routes';
import { amount, body } from '../../engine/schema';
import type { BodyOf, DataOf, Envelope } from '../../engine/contract';
import { createSyncDomain } from '../../engine/sync/handlers';
import { faucetHandler, fund, harnessCalls, signUp, T0, type Harness, type Session } from './harness';

export interface SyncHarness extends Harness {
  /** The next unit of work that reaches its commit throws instead (everything it wrote is dropped). */
  crashNextCommit(): void;
  push(s: Session, mutations: Mutation[], clientId?: string): Promise<Envelope<DataOf<'/api/sync/push'>>>;
}

/** One queued call as /api/sync/push takes it; its args are the call's body, unchecked until its handler. */
export type Mutation = BodyOf<'/api/sync/push'>['mutations'][number];
/** The envelope one mutation's call answered. */
export type Result = DataOf<'/api/sync/push'>['results'][number];

export async function syncHarness(): Promise<SyncHarness> {
  let crash = false;
  const testing: Domain = {
    name: 'sync-testing',
    handlers: {
      '/test/faucet': faucetHandler,
      // Moves money, then fails: the unit of work must drop the move.
      '/test/move-then-throw': handler({
        auth: true,
        body: body({ amount }),
        run: async (ctx, input) => {
          await ctx.ledger.move(acct.user(ctx.member.id), acct.platform('test'), input.amount, {
            kind: 'test.move',
            ref: 'test',
          });
          throw fail(4011, 'Failed after moving money');
        },
      }),
      // Changes a record it read in place, then fails: what the enclosing push holds must not change.
      '/test/mutate-then-throw': handler({
        auth: true,
        run: async (ctx) => {
          const row = await ctx.tx.get(balances, balanceId(acct.user(ctx.member.id), USDT));
          if (row) row.amount = '0';
          throw fail(400, 'Failed after changing a record in place');
        },
      }),
    },
    beforeCommit: async () => {
      if (!crash) return;
      crash = false;
      throw new Error('simulated crash at commit');
    },
  };
  const clock = manualClock(T0);
  const engine = await assembleEngine(
    { clock, seed: 11, storage: 'memory', config: { pbkdf2Iterations: 1_000, secrets: 'seeded' } },
    [
      ...domains.filter((d) => d.name !== 'sync'),
      createSyncDomain(['/test/move-then-throw', '/test/mutate-then-throw']),
      testing,
    ],
  );
  const calls = harnessCalls(engine);
  const { call } = calls;
  return {
    engine,
    clock,
    ...calls,
    crashNextCommit: () => {
      crash = true;
    },
    push: (s, mutations, clientId = 'device-1') => call('/api/sync/push', { clientId, mutations }, s),
  };
}

/** alice (funded) and bob (VIP2, so he may receive transfers). */
export async function pair(h: Harness, aliceFunds = '1000'): Promise<{ alice: Session; bob: Session }> {
  const alice = await signUp(h, 'alice');
  const bob = await signUp(h, 'bob');
  await fund(h, alice.id, aliceFunds);
  await fund(h, bob.id, '500');
  const vip = await h.call('/api/Viplist/Buyvip', { level: 2, key: 'key1' }, bob);
  if (vip.code !== 0) throw new Error(`Buyvip: ${vip.code} ${vip.msg}`);
  return { alice, bob };
}

export function transfer(id: string, amount = '1', account = 'bob'): Mutation {
  return { id, name: '/api/transfer/submit', args: { account, amount } };
}

export function results(r: Envelope<DataOf<'/api/sync/push'>>): Result[] {
  return r.data.results;
}

export async function available(h: Harness, s: Session): Promise<string> {
  return (await h.call('/api/user/getuser', undefined, s)).data.available;
}

export async function transferCount(h: Harness): Promise<number> {
  return ((await h.engine.diagnostics.snapshot())['transfers'] ?? []).length;
}
