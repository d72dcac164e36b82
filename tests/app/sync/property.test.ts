/**
 * Y1 + Y8 as a property: whatever the interleaving of enqueues, flushes over a link that is up, down or loses
 * answers, duplicate pushes from another tab and pulls, once the link is back and the outbox is flushed every
 * queued transfer has been applied exactly once, and the ledger's invariants hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replicaRecords } from '../../../src/sync/replica';
import { available, pair, syncHarness, transferCount } from '../../engine/sync-kit';
import { device, type Link } from './device-kit';

type Op =
  | { kind: 'enqueue'; count: number }
  | { kind: 'flush'; link: Link }
  | { kind: 'duplicate'; take: number }
  | { kind: 'pull' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('enqueue' as const), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('flush' as const), link: fc.constantFrom<Link>('up', 'down', 'lossy') }),
  fc.record({ kind: fc.constant('duplicate' as const), take: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('pull' as const) }),
);

describe('sync property (docs/RULES.md Y1, Y8)', () => {
  it('Y1 Y8 no interleaving of enqueue, flush, dropped links and duplicate pushes loses or doubles a mutation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const h = await syncHarness();
        const { alice, bob } = await pair(h);
        const d = device(h, alice, false);
        const queued: Array<{ id: string; name: string; args: unknown }> = [];
        for (const o of ops) {
          if (o.kind === 'enqueue') {
            for (let i = 0; i < o.count; i++) {
              const args = { account: 'bob', amount: '1' };
              queued.push({
                id: await d.sync.enqueue('/api/transfer/submit', args),
                name: '/api/transfer/submit',
                args,
              });
            }
          } else if (o.kind === 'flush') {
            d.link(o.link);
            await d.sync.flush();
          } else if (o.kind === 'duplicate') {
            // Another tab (or a retry after a timeout) pushes mutations that may already be applied.
            d.link('up');
            await d.api
              .call('/api/sync/push', { clientId: 'other-tab', mutations: queued.slice(-o.take) })
              .catch(() => null);
          } else {
            d.link('up');
            await d.sync.pull();
          }
        }
        d.link('up');
        const last = await d.sync.flush();
        expect(last).toMatchObject({ pending: 0, error: null });
        await d.sync.pull();
        for (const q of queued) expect((await d.sync.result(q.id))?.code).toBe(0);
        expect(await transferCount(h)).toBe(queued.length);
        expect(await available(h, bob)).toBe(String(queued.length));
        expect(await available(h, alice)).toBe(String(1000 - queued.length));
        const balances = await replicaRecords<{ id: string; amount: string }>(d.db, alice.id, 'balances');
        expect(balances.find((b) => b.id === `user:${alice.id}:cash|USDT`)?.amount).toBe(
          String(1000 - queued.length),
        );
        expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
        await h.engine.close();
      }),
      { numRuns: 25 },
    );
  });
});
