/**
 * An operator decision that goes through the engine (withdrawal approve and send, reject, deposit credit and
 * reject, identity check, member lock and unlock) and its audit row are one PostgreSQL transaction
 * (docs/OPERATIONS.md "Audit log"): when the audit row cannot be written (a failure injected by a trigger
 * on audit_log) the decision is rolled back and the route answers 503 with nothing changed; a normal decision
 * has exactly one audit row. Real HTTP, on PostgreSQL when DATABASE_URL is set, else PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AdminMember } from '../../../contract/admin/model';
import type { SqlStore } from '../../../server/sql-store';

import {
  adminCall,
  adminGet,
  adminWithdrawal,
  injectAuditFailures,
  memberWallet,
  OUTSIDE_TRC,
  startAdminFixture,
  stubGateway,
  submitCert,
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
const sends: string[] = [];

const gateway = stubGateway({
  sendWithdrawal: async (r) => {
    sends.push(r.id);
    return { txHash: (sends.length.toString(16) + 'cd'.repeat(32)).slice(0, 64) };
  },
});

beforeAll(async () => {
  ({ store, server, admin, reviewer, finance, ann } = await startAdminFixture(schema, { TRC20: gateway }));
  ({ arm, disarm } = await injectAuditFailures(store));
}, 60_000);

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

async function auditOf(target: string): Promise<string[]> {
  const { rows } = await store.driver.query<{ action: string }>(
    `SELECT action FROM ${schema}.audit_log WHERE target = $1 ORDER BY id`,
    [target],
  );
  return rows.map((r) => r.action);
}

async function approvalsOf(withdrawalId: string): Promise<number> {
  const { rows } = await store.driver.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM ${schema}.withdrawal_approvals WHERE withdrawal_id = $1`,
    [withdrawalId],
  );
  return Number(rows[0]?.n);
}

const wallet = (session: Session) => memberWallet(server, session);
const withdrawal = (id: string) => adminWithdrawal(server, admin.token, id);
const withdraw = (amount: string) => submitWithdrawal(server, ann, 'TRC20', OUTSIDE_TRC, amount);

async function manualDeposit(n: number): Promise<string> {
  const r = await server.call(
    '/api/recharge/submit',
    { network: 'TRC20', amount: '25', txid: n.toString(16).padStart(64, 'f') },
    ann,
  );
  if (r.code !== 0) throw new Error(`recharge: ${r.code} ${r.msg}`);
  return r.data.id;
}

async function depositStatus(id: string): Promise<string | undefined> {
  const list = (await adminGet(server, '/api/admin/deposits', { q: 'ann', limit: 100 }, admin.token)).data;
  return list.list.find((d) => d.id === id)?.status;
}

describe(`audit rows in the decision's transaction (${sqlKind})`, () => {
  it('deposit credit and reject: a failed audit row rolls the decision back; then one row each', async () => {
    for (const [action, op, path] of [
      ['deposit.credit', finance, '/api/admin/deposits/credit'],
      ['deposit.reject', reviewer, '/api/admin/deposits/reject'],
    ] as const) {
      const id = await manualDeposit(action === 'deposit.credit' ? 1 : 2);
      const before = await wallet(ann);
      await arm(action);
      const failed = await adminCall(server, path, { id, reason: 'Checked' }, op.token);
      expect(failed).toMatchObject({ code: 503, data: null });
      expect(failed.msg).toMatch(/audit log could not be written: nothing was changed/);
      expect(await depositStatus(id)).toBe('pending');
      expect(await wallet(ann)).toEqual(before);
      expect(await auditOf(`deposit:${id}`)).toEqual([]);
      await disarm();
      const done = await adminCall(server, path, { id, reason: 'Checked' }, op.token);
      expect(done.code).toBe(0);
      expect(await depositStatus(id)).toBe(action === 'deposit.credit' ? 'success' : 'rejected');
      expect(await auditOf(`deposit:${id}`)).toEqual([action]);
      // Decided: a second decision is refused and writes nothing.
      expect((await adminCall(server, path, { id, reason: 'Again' }, op.token)).code).toBe(409);
      expect(await auditOf(`deposit:${id}`)).toEqual([action]);
    }
    expect((await wallet(ann)).balance).toBe('1025');
  });

  it('withdrawal reject: a failed audit row leaves it pending and frozen; then one row', async () => {
    const id = await withdraw('40');
    const frozen = await wallet(ann);
    await arm('withdrawal.reject');
    const failed = await adminCall(
      server,
      '/api/admin/withdrawals/reject',
      { id, reason: 'Address on a sanctions list' },
      reviewer.token,
    );
    expect(failed.code).toBe(503);
    expect(await withdrawal(id)).toMatchObject({ status: 'pending', reason: null });
    expect(await wallet(ann)).toEqual(frozen);
    expect(await auditOf(`withdrawal:${id}`)).toEqual([]);
    await disarm();
    const done = await adminCall(
      server,
      '/api/admin/withdrawals/reject',
      { id, reason: 'Address on a sanctions list' },
      reviewer.token,
    );
    expect(done.data).toMatchObject({ status: 'rejected' });
    expect(await auditOf(`withdrawal:${id}`)).toEqual(['withdrawal.reject']);
    expect((await wallet(ann)).frozen).toBe('0');
  });

  it('withdrawal approve: the hash, the approval and the audit row commit together; a failure leaves it sending', async () => {
    const ok = await withdraw('30');
    const approved = await adminCall(server, '/api/admin/withdrawals/approve', { id: ok }, reviewer.token);
    expect(approved.data).toMatchObject({ status: 'success', approvals: [{ operatorId: reviewer.id }] });
    expect(await auditOf(`withdrawal:${ok}`)).toEqual(['withdrawal.approve']);
    expect(await approvalsOf(ok)).toBe(1);

    const id = await withdraw('20');
    const held = await wallet(ann);
    await arm('withdrawal.approve');
    const failed = await adminCall(server, '/api/admin/withdrawals/approve', { id }, reviewer.token);
    // Broadcast, but neither the hash nor the approval nor the audit row was committed: it stays claimed.
    expect(failed.code).toBe(503);
    expect(failed.msg).toMatch(/^Sent as [0-9a-f]{64}, but recording it failed/);
    expect(sends.filter((s) => s === id)).toHaveLength(1);
    expect(await withdrawal(id)).toMatchObject({ status: 'sending', txHash: null, approvals: [] });
    expect(await approvalsOf(id)).toBe(0);
    expect(await auditOf(`withdrawal:${id}`)).toEqual([]);
    expect(await wallet(ann)).toEqual(held);
    await disarm();
    // Claimed: a second approval sends nothing.
    expect((await adminCall(server, '/api/admin/withdrawals/approve', { id }, admin.token)).code).toBe(409);
    expect(sends.filter((s) => s === id)).toHaveLength(1);
  });

  it('identity check and member lock: a failed audit row changes nothing; then one row each', async () => {
    const { result: submitted } = await submitCert(server, ann, 'Ann Lee', 'A7654321');
    expect(submitted.code).toBe(0);
    const cert = (await adminGet(server, '/api/admin/certs', { status: 'review' }, reviewer.token)).data
      .list[0];
    if (!cert) throw new Error('no identity check under review');
    await arm('cert.decide');
    const decide = () =>
      adminCall(server, '/api/admin/certs/decide', { id: cert.id, passed: true }, reviewer.token);
    expect((await decide()).code).toBe(503);
    expect(await auditOf(`cert:${cert.id}`)).toEqual([]);
    expect((await server.call('/api/user/getuser', undefined, ann)).data).toMatchObject({
      realNameStatus: 'under review',
    });
    await disarm();
    expect((await decide()).data).toMatchObject({ status: 'passed' });
    expect(await auditOf(`cert:${cert.id}`)).toEqual(['cert.decide']);

    const lock = (locked: boolean) =>
      adminCall(server, '/api/admin/members/lock', { id: ann.id, locked, reason: 'Review' }, admin.token);
    await arm('member.lock');
    expect((await lock(true)).code).toBe(503);
    expect((await server.call('/api/user/getuser', undefined, ann)).code).toBe(0);
    expect(await auditOf(`member:${ann.id}`)).toEqual([]);
    await disarm();
    expect((await lock(true)).data).toMatchObject({ locked: true } satisfies Partial<AdminMember>);
    expect((await server.call('/api/user/getuser', undefined, ann)).code).toBe(401);
    await arm('member.unlock');
    expect((await lock(false)).code).toBe(503);
    const members = (await adminGet(server, '/api/admin/members', { q: 'ann' }, admin.token)).data;
    expect(members.list[0]).toMatchObject({ locked: true });
    await disarm();
    expect((await lock(false)).data).toMatchObject({ locked: false });
    expect(await auditOf(`member:${ann.id}`)).toEqual(['member.lock', 'member.unlock']);
  });
});
