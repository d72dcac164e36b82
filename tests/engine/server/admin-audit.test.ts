/**
 * An operator decision that goes through the engine (withdrawal approve and send, reject, deposit credit and
 * reject, identity check, member lock and unlock) and its audit row are one PostgreSQL transaction
 * (docs/OPERATIONS.md "Audit log"): when the audit row cannot be written (a failure injected by a trigger
 * on audit_log) the decision is rolled back and the route answers 503 with nothing changed; a normal decision
 * has exactly one audit row. Real HTTP, on PostgreSQL when DATABASE_URL is set, else PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminCert,
  AdminDeposit,
  AdminList,
  AdminMember,
  AdminWithdrawal,
} from '../../../server/admin/contract';
import type { ChainGateway } from '../../../server/chain/gateway';
import { SqlStore } from '../../../server/sql-store';
import { adminCall, adminGet, makeOperator, type TestOperator } from './admin-helpers';
import { deposit, signUp, startTestServer, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const OUTSIDE_TRC = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

const schema = freshSchema();
let store: SqlStore;
let server: TestServer;
let admin: TestOperator;
let reviewer: TestOperator;
let finance: TestOperator;
let ann: Session;
const sends: string[] = [];

const gateway: ChainGateway = {
  network: 'TRC20',
  confirmations: 19,
  watch: () => undefined,
  poll: async () => [],
  sendWithdrawal: async (r) => {
    sends.push(r.id);
    return { txHash: (sends.length.toString(16) + 'cd'.repeat(32)).slice(0, 64) };
  },
  estimateFee: async () => ({ asset: 'TRX', amount: 0n, units: 0n }),
};

beforeAll(async () => {
  store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({
    storage: store,
    config: { loginPerIpPerMinute: 1_000 },
    gateways: { TRC20: gateway },
  });
  admin = await makeOperator(store, server, 'root', 'admin');
  reviewer = await makeOperator(store, server, 'rita', 'reviewer');
  finance = await makeOperator(store, server, 'fiona', 'finance');
  ann = await signUp(server, 'ann');
  await deposit(server, ann, '1000', 1);
  // The injected failure: an insert into audit_log of an armed action raises.
  await store.driver.query(`CREATE TABLE ${schema}.audit_fail (action text PRIMARY KEY)`);
  await store.driver.query(
    `CREATE FUNCTION ${schema}.audit_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
      `IF EXISTS (SELECT 1 FROM ${schema}.audit_fail WHERE action = NEW.action) THEN ` +
      `RAISE EXCEPTION 'injected audit failure'; END IF; RETURN NEW; END $$`,
  );
  await store.driver.query(
    `CREATE TRIGGER audit_fail BEFORE INSERT ON ${schema}.audit_log ` +
      `FOR EACH ROW EXECUTE FUNCTION ${schema}.audit_fail()`,
  );
}, 60_000);

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

const arm = (action: string) =>
  store.driver.query(`INSERT INTO ${schema}.audit_fail (action) VALUES ($1)`, [action]);
const disarm = () => store.driver.query(`DELETE FROM ${schema}.audit_fail`);

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

async function wallet(session: Session): Promise<{ balance: string; frozen: string }> {
  return (await server.call('/api/user/getuser', {}, session)).data as { balance: string; frozen: string };
}

async function withdrawal(id: string): Promise<AdminWithdrawal | undefined> {
  return (
    (await adminGet(server, '/api/admin/withdrawals', { q: id }, admin.token))
      .data as AdminList<AdminWithdrawal>
  ).list[0];
}

async function withdraw(amount: string): Promise<string> {
  const r = await server.call(
    '/api/withdraw/submit',
    { currency: 'USDT', network: 'TRC20', address: OUTSIDE_TRC, amount, key: 'key1' },
    ann,
  );
  if (!(r.data as { id?: string } | null)?.id) throw new Error(`withdraw: ${r.code} ${r.msg}`);
  return (r.data as { id: string }).id;
}

async function manualDeposit(n: number): Promise<string> {
  const r = await server.call(
    '/api/recharge/submit',
    { network: 'TRC20', amount: '25', txid: n.toString(16).padStart(64, 'f') },
    ann,
  );
  if (r.code !== 0) throw new Error(`recharge: ${r.code} ${r.msg}`);
  return (r.data as { id: string }).id;
}

async function depositStatus(id: string): Promise<string | undefined> {
  const list = (await adminGet(server, '/api/admin/deposits', { q: 'ann', limit: 100 }, admin.token))
    .data as AdminList<AdminDeposit>;
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
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'id.png');
    const up = (await (
      await fetch(`${server.url}/api/user/uploads`, { method: 'POST', headers: ann.headers, body: form })
    ).json()) as { data: { url: string } };
    const submitted = await server.call(
      '/api/user/cert',
      { realName: 'Ann Lee', idNumber: 'A7654321', frontImage: up.data.url, backImage: up.data.url },
      ann,
    );
    expect(submitted.code).toBe(0);
    const cert = (
      (await adminGet(server, '/api/admin/certs', { status: 'review' }, reviewer.token))
        .data as AdminList<AdminCert>
    ).list[0];
    if (!cert) throw new Error('no identity check under review');
    await arm('cert.decide');
    const decide = () =>
      adminCall(server, '/api/admin/certs/decide', { id: cert.id, passed: true }, reviewer.token);
    expect((await decide()).code).toBe(503);
    expect(await auditOf(`cert:${cert.id}`)).toEqual([]);
    expect((await server.call('/api/user/getuser', {}, ann)).data).toMatchObject({
      realNameStatus: 'under review',
    });
    await disarm();
    expect((await decide()).data).toMatchObject({ status: 'passed' });
    expect(await auditOf(`cert:${cert.id}`)).toEqual(['cert.decide']);

    const lock = (locked: boolean) =>
      adminCall(server, '/api/admin/members/lock', { id: ann.id, locked, reason: 'Review' }, admin.token);
    await arm('member.lock');
    expect((await lock(true)).code).toBe(503);
    expect((await server.call('/api/user/getuser', {}, ann)).code).toBe(0);
    expect(await auditOf(`member:${ann.id}`)).toEqual([]);
    await disarm();
    expect((await lock(true)).data).toMatchObject({ locked: true } satisfies Partial<AdminMember>);
    expect((await server.call('/api/user/getuser', {}, ann)).code).toBe(401);
    await arm('member.unlock');
    expect((await lock(false)).code).toBe(503);
    const members = (await adminGet(server, '/api/admin/members', { q: 'ann' }, admin.token))
      .data as AdminList<AdminMember>;
    expect(members.list[0]).toMatchObject({ locked: true });
    await disarm();
    expect((await lock(false)).data).toMatchObject({ locked: false });
    expect(await auditOf(`member:${ann.id}`)).toEqual(['member.lock', 'member.unlock']);
  });
});
