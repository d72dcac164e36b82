/**
 * Withdrawals stuck "sending" (docs/OPERATIONS.md "Sending an approved withdrawal", "The reconciler",
 * "Audit log"): an operator releases one with no recorded broadcast back to review
 * (POST /api/admin/withdrawals/release), audited in the same transaction; the reconciler's decisions are
 * audited by the system actor in the decision's own transaction. Real HTTP, on PostgreSQL when DATABASE_URL
 * is set, else PGlite; failures injected by a trigger on audit_log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuditEntry } from '../../../contract/admin/model';
import type { ChainGateway, SentStatus } from '../../../server/chain/gateway';

import { reconcileRound } from '../../../server/chain/reconciler';

import type { SqlStore } from '../../../server/sql-store';

import {
  adminCall,
  adminCallRaw,
  adminGet,
  adminWithdrawal,
  injectAuditFailures,
  memberWallet,
  OUTSIDE_TRC,
  startAdminFixture,
  stubGateway,
  submitWithdrawal,
  type TestOperator,
} from './admin-helpers';

import type { Session, TestServer } from './serve';

import { dropSchema, freshSchema, sqlKind } from './sql';

const schema = freshSchema();
let store: SqlStore;
let server: TestServer;
let admin: TestOperator;
let reviewer: TestOperator;
let finance: TestOperator;
let ann: Session;
let arm: (action: string) => Promise<unknown>;
let disarm: () => Promise<unknown>;
/** What the stand-in chain answers per hash (sentStatus). */
const chain = new Map<string, SentStatus>();
/** How the stand-in gateway sends (a test sets it); hashes it broadcast. */
let send: ChainGateway['sendWithdrawal'] = async () => {
  throw new Error('not used');
};
const broadcasts: string[] = [];

const gateway = stubGateway({
  sendWithdrawal: (request) => send(request),
  sentStatus: async ({ txHash }) => chain.get(txHash) ?? { state: 'absent', final: false },
});

beforeAll(async () => {
  ({ store, server, admin, reviewer, finance, ann } = await startAdminFixture(schema, { TRC20: gateway }));
  ({ arm, disarm } = await injectAuditFailures(store));
}, 60_000);

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

async function auditOf(id: string): Promise<AuditEntry[]> {
  const list = (await adminGet(server, '/api/admin/audit', { limit: 100 }, admin.token)).data;
  return list.list.filter((e) => e.target === `withdrawal:${id}`).reverse();
}

const withdrawal = (id: string) => adminWithdrawal(server, admin.token, id);
const wallet = () => memberWallet(server, ann);
const withdraw = (amount: string) => submitWithdrawal(server, ann, 'TRC20', OUTSIDE_TRC, amount);

/** A withdrawal claimed for sending, as left by a process that stopped (with the hash it recorded, if any). */
async function stuck(amount: string, txHash?: string): Promise<string> {
  const id = await withdraw(amount);
  expect(await server.engine.operations.claimWithdrawal(id)).not.toBeNull();
  if (txHash) expect(await server.engine.operations.recordBroadcast(id, { txHash, nonce: null })).toBe(true);
  return id;
}

const hash = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
/** Without a reason the body is one the route refuses: sent unchecked. */
const release = (id: string, reason: string | undefined, token: string) =>
  adminCallRaw(
    server,
    '/api/admin/withdrawals/release',
    reason === undefined ? { id } : { id, reason },
    token,
  );

describe(`release a withdrawal stuck sending (${sqlKind})`, () => {
  it('the queue shows whether a broadcast is recorded', async () => {
    const bare = await stuck('11');
    const sent = await stuck('12', hash(1));
    expect(await withdrawal(bare)).toMatchObject({ status: 'sending', broadcast: null, txHash: null });
    expect((await withdrawal(bare))?.sendingSince).toBeTypeOf('number');
    expect(await withdrawal(sent)).toMatchObject({
      status: 'sending',
      broadcast: { txHash: hash(1), nonce: null },
    });
    // A pending one has neither.
    const fresh = await withdraw('13');
    expect(await withdrawal(fresh)).toMatchObject({ status: 'pending', broadcast: null, sendingSince: null });
  });

  it('refuses: no session 401, finance 403, no reason 400, unknown 404, a recorded hash or not sending 409', async () => {
    const id = await stuck('14');
    expect((await release(id, 'stopped', '')).code).toBe(401);
    expect((await release(id, 'stopped', finance.token)).code).toBe(403);
    expect((await release(id, undefined, reviewer.token)).code).toBe(400);
    expect((await release(id, '   ', reviewer.token)).code).toBe(400);
    expect(
      (
        await adminCallRaw(
          server,
          '/api/admin/withdrawals/release',
          { id, reason: 'x', extra: 1 },
          reviewer.token,
        )
      ).code,
    ).toBe(400);
    expect((await release('nope', 'stopped', reviewer.token)).code).toBe(404);
    const withHash = await stuck('15', hash(2));
    const refused = await release(withHash, 'stopped', reviewer.token);
    expect(refused.code).toBe(409);
    expect(refused.msg).toContain(hash(2));
    expect(await withdrawal(withHash)).toMatchObject({ status: 'sending' });
    const pending = await withdraw('16');
    expect((await release(pending, 'stopped', reviewer.token)).code).toBe(409);
    expect(await withdrawal(id)).toMatchObject({ status: 'sending' });
    expect(await auditOf(id)).toEqual([]);
    expect(await auditOf(withHash)).toEqual([]);
  });

  it('releases to review with the hold still frozen and one audit row; a failed audit write leaves it sending', async () => {
    const id = await stuck('17');
    const held = await wallet();
    await arm('withdrawal.release');
    const failed = await release(
      id,
      'Server restarted after the claim; journal has no signature',
      reviewer.token,
    );
    expect(failed.code).toBe(503);
    expect(await withdrawal(id)).toMatchObject({ status: 'sending' });
    expect(await auditOf(id)).toEqual([]);
    await disarm();
    const done = await release(
      id,
      'Server restarted after the claim; journal has no signature',
      reviewer.token,
    );
    expect(done.code).toBe(0);
    expect(done.data).toMatchObject({ id, status: 'pending', broadcast: null, sendingSince: null });
    expect(await wallet()).toEqual(held);
    expect(Number((await wallet()).frozen)).toBeGreaterThanOrEqual(17);
    expect(await auditOf(id)).toMatchObject([
      {
        operatorId: reviewer.id,
        username: 'rita',
        role: 'reviewer',
        action: 'withdrawal.release',
        before: { status: 'sending', broadcast: null },
        after: { status: 'pending' },
        reason: 'Server restarted after the claim; journal has no signature',
      },
    ]);
    // Released once: a second release is refused, and the withdrawal can be rejected (or approved) again.
    expect((await release(id, 'again', reviewer.token)).code).toBe(409);
    const rejected = await adminCall(
      server,
      '/api/admin/withdrawals/reject',
      { id, reason: 'Ask again' },
      reviewer.token,
    );
    expect(rejected.data).toMatchObject({ status: 'rejected' });
  });

  it('a send still in flight whose claim is released meanwhile broadcasts nothing (onSigned refuses)', async () => {
    const id = await withdraw('18');
    let signed!: () => void;
    const released = new Promise<void>((resolve) => (signed = resolve));
    let claimed!: () => void;
    const inFlight = new Promise<void>((resolve) => (claimed = resolve));
    send = async (request) => {
      claimed();
      // Signed; an operator releases the claim before the hash is recorded.
      await released;
      await request.onSigned?.({ txHash: hash(3), nonce: null });
      broadcasts.push(request.id);
      return { txHash: hash(3) };
    };
    const approving = adminCall(server, '/api/admin/withdrawals/approve', { id }, admin.token);
    await inFlight;
    expect(await withdrawal(id)).toMatchObject({ status: 'sending', broadcast: null });
    expect((await release(id, 'looked stuck', reviewer.token)).code).toBe(0);
    signed();
    const approved = await approving;
    expect(approved.code).toBe(503);
    expect(approved.msg).toMatch(/no longer being sent/);
    expect(broadcasts).toEqual([]);
    expect(await withdrawal(id)).toMatchObject({ status: 'pending', broadcast: null, txHash: null });
    expect((await auditOf(id)).map((e) => e.action)).toEqual(['withdrawal.release']);
  });
});

describe(`the reconciler's decisions in the audit log (${sqlKind})`, () => {
  const round = () =>
    reconcileRound(gateway, server.engine.operations, { confirmations: 19, now: () => server.clock.now() });

  it('completes with a system audit row; a failed audit write rolls the completion back', async () => {
    const id = await stuck('21', hash(4));
    chain.set(hash(4), { state: 'mined', success: true, confirmations: 25, blockNumber: 100 });
    await arm('withdrawal.reconcile_complete');
    await expect(round()).rejects.toThrow();
    expect(await withdrawal(id)).toMatchObject({ status: 'sending', broadcast: { txHash: hash(4) } });
    expect(await auditOf(id)).toEqual([]);
    await disarm();
    const outcomes = await round();
    expect(outcomes.find((o) => o.withdrawalId === id)).toMatchObject({ action: 'completed' });
    expect(await withdrawal(id)).toMatchObject({ status: 'success', txHash: hash(4) });
    expect(await auditOf(id)).toMatchObject([
      {
        operatorId: null,
        username: 'system',
        role: 'system',
        action: 'withdrawal.reconcile_complete',
        before: { status: 'sending', txHash: hash(4) },
        after: {
          status: 'success',
          txHash: hash(4),
          chain: { state: 'mined', success: true, confirmations: 25, required: 19 },
        },
        reason: 'mined, 25 confirmations',
      },
    ]);
    // A second round finds nothing to do and audits nothing more.
    await round();
    expect(await auditOf(id)).toHaveLength(1);
  });

  it('releases a failed transfer with a system audit row, the hold still frozen; waiting is not audited', async () => {
    const waiting = await stuck('22', hash(5));
    chain.set(hash(5), { state: 'pending' });
    const id = await stuck('23', hash(6));
    chain.set(hash(6), { state: 'mined', success: false, confirmations: 30, blockNumber: 90 });
    const held = await wallet();
    await arm('withdrawal.reconcile_release');
    await expect(round()).rejects.toThrow();
    expect(await withdrawal(id)).toMatchObject({ status: 'sending' });
    await disarm();
    const outcomes = await round();
    expect(outcomes.find((o) => o.withdrawalId === id)).toMatchObject({ action: 'released' });
    expect(outcomes.find((o) => o.withdrawalId === waiting)).toMatchObject({ action: 'waiting' });
    expect(await withdrawal(id)).toMatchObject({ status: 'pending', broadcast: null });
    expect(await wallet()).toEqual(held);
    expect(await auditOf(id)).toMatchObject([
      {
        operatorId: null,
        role: 'system',
        action: 'withdrawal.reconcile_release',
        before: { status: 'sending', txHash: hash(6) },
        after: { status: 'pending', chain: { state: 'mined', success: false } },
        reason: 'mined but failed: nothing was transferred',
      },
    ]);
    expect(await auditOf(waiting)).toEqual([]);
    // The audit list filters the system actor's rows by action, and its role reads `system`.
    const filtered = (
      await adminGet(server, '/api/admin/audit', { action: 'withdrawal.reconcile_release' }, admin.token)
    ).data;
    expect(filtered.list.every((e) => e.role === 'system' && e.operatorId === null)).toBe(true);
  });

  it('the database refuses a system row naming an operator, and an operator row without one', async () => {
    const insert = (operatorId: string | null, role: string) =>
      store.driver.query(
        `INSERT INTO ${schema}.audit_log (at, operator_id, username, role, action, target) ` +
          `VALUES (1, $1, 'x', $2, 'test', 'test')`,
        [operatorId, role],
      );
    await expect(insert(reviewer.id, 'system')).rejects.toThrow();
    await expect(insert(null, 'reviewer')).rejects.toThrow();
    // Still append-only.
    await expect(store.driver.query(`DELETE FROM ${schema}.audit_log WHERE role = 'system'`)).rejects.toThrow(
      /append-only/,
    );
  });
});
