/**
 * The operator API (server/admin, docs/OPERATIONS.md "Operator API") on a live server over real HTTP, on
 * PostgreSQL when DATABASE_URL is set, else PGlite: TOTP login and lockout, 8-hour sessions, member tokens
 * refused, roles, maker-checker, sending through the chain gateway, rejection with a reason the member's
 * socket hears, an audit row per action that the database refuses to change, bad input changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { WebSocket } from 'ws';

import type { AdminMemberDetail, AuditEntry } from '../../../contract/admin/model';
import type { SqlStore } from '../../../server/sql-store';

import {
  adminCall,
  adminCallRaw,
  adminGet,
  adminGetRaw,
  adminLogin,
  adminWithdrawal,
  makeOperator,
  OPERATOR_PASSWORD,
  OUTSIDE_TRC,
  startAdminServer,
  stubGateway,
  submitCert,
  submitWithdrawal,
  totpAt,
  type TestOperator,
} from './admin-helpers';

import { deposit, login, signUp, type Session, type TestServer } from './serve';

import { dropSchema, freshSchema, sqlKind } from './sql';

const OUTSIDE_ERC = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const schema = freshSchema();
let store: SqlStore;
let server: TestServer;
let admin: TestOperator;
let rev1: TestOperator;
let rev2: TestOperator;
let fin: TestOperator;
let ann: Session;
const sends: Array<{ id: string; to: string; amount: bigint }> = [];
const sockets: WebSocket[] = [];

const trcGateway = stubGateway({
  sendWithdrawal: async (r) => {
    sends.push({ id: r.id, to: r.to, amount: r.amount });
    return { txHash: (sends.length.toString(16) + 'ab'.repeat(32)).slice(0, 64) };
  },
  walletBalance: async () => ({ address: OUTSIDE_TRC, amount: 1_000_000_000n }),
});

beforeAll(async () => {
  // A TRC20 gateway only: ERC20 has none, so approvals there answer 503.
  ({ store, server } = await startAdminServer(schema, { TRC20: trcGateway }));
  admin = await makeOperator(store, server, 'root', 'admin');
  rev1 = await makeOperator(store, server, 'rita', 'reviewer');
  rev2 = await makeOperator(store, server, 'remy', 'reviewer');
  fin = await makeOperator(store, server, 'fiona', 'finance');
  ann = await signUp(server, 'ann');
  await deposit(server, ann, '20000', 1);
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.terminate();
  await server.close();
  await dropSchema(schema);
});

const withdraw = (network: 'TRC20' | 'ERC20', amount: string) =>
  submitWithdrawal(server, ann, network, network === 'TRC20' ? OUTSIDE_TRC : OUTSIDE_ERC, amount);

async function balance(session: Session): Promise<string> {
  return (await server.call('/api/user/getuser', undefined, session)).data.balance;
}

async function auditRows(): Promise<AuditEntry[]> {
  return (await adminGet(server, '/api/admin/audit', { limit: 100 }, admin.token)).data.list;
}

async function auditCount(): Promise<number> {
  const { rows } = await store.driver.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM ${schema}.audit_log`,
  );
  return Number(rows[0]?.n);
}

describe(`operator API (${sqlKind})`, () => {
  it('logs in with password and TOTP; a wrong code is refused; sessions end after 8 hours and on logout', async () => {
    server.clock.advance(30_000);
    const base = { username: 'rita', password: OPERATOR_PASSWORD };
    const wrong = await adminCall(server, '/api/admin/login', { ...base, totp: '000000' });
    expect(wrong.code).toBe(401);
    const code = await totpAt(server, rev1.secret);
    const ok = await adminCall(server, '/api/admin/login', { ...base, totp: code });
    expect(ok.code).toBe(0);
    const { token, expiresAt, operator } = ok.data;
    expect(operator).toMatchObject({ username: 'rita', role: 'reviewer', disabled: false });
    expect(expiresAt).toBe(Math.floor(server.clock.now() / 1000) + 8 * 3600);
    // The same code cannot be used twice.
    expect((await adminCall(server, '/api/admin/login', { ...base, totp: code })).code).toBe(401);
    // One step of drift either way is accepted (a code of the step after the one used, a minute later).
    server.clock.advance(60_000);
    const late = await adminCall(server, '/api/admin/login', {
      ...base,
      totp: await totpAt(server, rev1.secret, -1),
    });
    expect(late.code).toBe(0);
    expect((await adminGet(server, '/api/admin/me', {}, token)).data).toMatchObject({ username: 'rita' });
    // The first session was opened a minute ago: 8 hours after it, it ends.
    server.clock.advance(8 * 3600_000 - 61_000);
    expect((await adminGet(server, '/api/admin/me', {}, token)).code).toBe(0);
    server.clock.advance(1_000);
    expect((await adminGet(server, '/api/admin/me', {}, token)).code).toBe(401);
    const other = late.data.token;
    expect((await adminCall(server, '/api/admin/logout', {}, other)).code).toBe(0);
    expect((await adminGet(server, '/api/admin/me', {}, other)).code).toBe(401);
    // The long-lived test sessions were opened 8 h ago too: fresh ones.
    for (const op of [admin, rev1, rev2, fin]) op.token = await adminLogin(server, op);
  });

  it('locks an operator out for 15 minutes after 5 failed logins (423); unknown usernames write nothing', async () => {
    const locked = await makeOperator(store, server, 'lou', 'reviewer');
    const before = await auditCount();
    const unknown = await adminCall(server, '/api/admin/login', {
      username: 'nobody',
      password: OPERATOR_PASSWORD,
      totp: '123456',
    });
    expect(unknown.code).toBe(401);
    expect(await auditCount()).toBe(before);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push(
        (
          await adminCall(server, '/api/admin/login', {
            username: 'lou',
            password: 'wrong password!',
            totp: '123456',
          })
        ).code,
      );
    expect(codes).toEqual([401, 401, 401, 401, 423]);
    server.clock.advance(30_000);
    const right = { username: 'lou', password: OPERATOR_PASSWORD, totp: await totpAt(server, locked.secret) };
    const refused = await adminCall(server, '/api/admin/login', right);
    expect(refused.code).toBe(423);
    expect(refused.msg).toMatch(/locked until/);
    server.clock.advance(15 * 60_000);
    expect(
      (await adminCall(server, '/api/admin/login', { ...right, totp: await totpAt(server, locked.secret) }))
        .code,
    ).toBe(0);
    const actions = (await auditRows()).filter((a) => a.username === 'lou').map((a) => a.action);
    expect(actions).toContain('operator.lockout');
  });

  it('refuses a member token (401) on every operator route', async () => {
    const member = await login(server, 'ann');
    const routes: Array<['GET' | 'POST', string]> = [
      ['POST', '/api/admin/logout'],
      ['GET', '/api/admin/me'],
      ['GET', '/api/admin/withdrawals'],
      ['POST', '/api/admin/withdrawals/approve'],
      ['POST', '/api/admin/withdrawals/reject'],
      ['GET', '/api/admin/deposits'],
      ['POST', '/api/admin/deposits/credit'],
      ['POST', '/api/admin/deposits/reject'],
      ['GET', '/api/admin/certs'],
      ['POST', '/api/admin/certs/decide'],
      ['GET', '/api/admin/members'],
      ['GET', '/api/admin/members/detail'],
      ['POST', '/api/admin/members/lock'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/operators'],
      ['POST', '/api/admin/operators/create'],
      ['POST', '/api/admin/operators/update'],
      ['GET', '/api/admin/solvency'],
      ['GET', '/api/admin/settings'],
      ['POST', '/api/admin/settings'],
    ];
    for (const [method, path] of routes) {
      for (const headers of [
        member.headers,
        { Authorization: `Bearer ${member.token}`, UserId: member.id },
        {},
      ]) {
        const r =
          method === 'GET'
            ? await adminGetRaw(server, path, {}, undefined, headers)
            : await adminCallRaw(server, path, {}, undefined, headers);
        expect([path, r.code]).toEqual([path, 401]);
      }
    }
    // And an operator token is not a member's.
    expect(
      (
        await server.call('/api/user/getuser', undefined, {
          ...member,
          headers: { Authorization: admin.token, UserId: admin.id },
        })
      ).code,
    ).toBe(401);
  });

  it('refuses a role its grants do not include (403)', async () => {
    const reviewerRefused: Array<['GET' | 'POST', string]> = [
      ['POST', '/api/admin/deposits/credit'],
      ['POST', '/api/admin/members/lock'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/operators'],
      ['POST', '/api/admin/operators/create'],
      ['POST', '/api/admin/operators/update'],
      ['GET', '/api/admin/settings'],
      ['POST', '/api/admin/settings'],
    ];
    for (const [method, path] of reviewerRefused) {
      const r =
        method === 'GET'
          ? await adminGetRaw(server, path, {}, rev1.token)
          : await adminCallRaw(server, path, { id: '1', reason: 'x' }, rev1.token);
      expect([path, r.code]).toEqual([path, 403]);
    }
    for (const path of [
      '/api/admin/withdrawals/approve',
      '/api/admin/withdrawals/reject',
      '/api/admin/certs/decide',
    ])
      expect((await adminCallRaw(server, path, { id: '1' }, fin.token)).code).toBe(403);
    // Every operator reads members and the solvency view.
    expect((await adminGet(server, '/api/admin/members', {}, fin.token)).code).toBe(0);
    expect((await adminGet(server, '/api/admin/solvency', {}, rev1.token)).code).toBe(0);
    // Finance credits manual deposits, so it reads their queue (the console shows it the Deposits screen).
    expect((await adminGet(server, '/api/admin/deposits', {}, fin.token)).code).toBe(0);
  });

  it('maker-checker: above the threshold two different operators approve; the same one twice is 409; the hash is recorded', async () => {
    const set = await adminCall(server, '/api/admin/settings', { makerCheckerThreshold: '100' }, admin.token);
    expect(set).toMatchObject({ code: 0, data: { makerCheckerThreshold: '100' } });
    const big = await withdraw('TRC20', '500');
    const first = await adminCall(server, '/api/admin/withdrawals/approve', { id: big }, rev1.token);
    expect(first.code).toBe(0);
    expect(first.data).toMatchObject({ status: 'pending', approvalsNeeded: 2, txHash: null });
    expect(first.data.approvals).toMatchObject([{ operatorId: rev1.id, username: 'rita' }]);
    expect(sends).toHaveLength(0);
    const again = await adminCall(server, '/api/admin/withdrawals/approve', { id: big }, rev1.token);
    expect(again.code).toBe(409);
    const second = await adminCall(server, '/api/admin/withdrawals/approve', { id: big }, rev2.token);
    expect(second.code).toBe(0);
    const done = second.data;
    expect(done).toMatchObject({ status: 'success', amount: '500', received: '499' });
    expect(done.approvals.map((a) => a.username)).toEqual(['rita', 'remy']);
    expect(sends).toEqual([{ id: big, to: OUTSIDE_TRC, amount: 499_000_000n }]);
    expect(done.txHash).toMatch(/^[0-9a-f]{64}$/);
    const mine = (await server.call('/api/withdraw/list', {}, ann)).data;
    expect(mine.list.find((w) => w['id'] === big)).toMatchObject({ status: 'success', txid: done.txHash });
    // Decided: a third approval or a rejection is 409.
    expect((await adminCall(server, '/api/admin/withdrawals/approve', { id: big }, admin.token)).code).toBe(
      409,
    );
    expect(
      (await adminCall(server, '/api/admin/withdrawals/reject', { id: big, reason: 'x' }, admin.token)).code,
    ).toBe(409);

    // At or below the threshold one approval sends it.
    const small = await withdraw('TRC20', '100');
    const one = await adminCall(server, '/api/admin/withdrawals/approve', { id: small }, rev2.token);
    expect(one.data).toMatchObject({ status: 'success', approvalsNeeded: 1 });
    expect(sends).toHaveLength(2);

    const queue = (await adminGet(server, '/api/admin/withdrawals', { status: 'success' }, rev1.token)).data;
    expect(queue.list.map((w) => w.id)).toEqual([small, big]);
    expect(queue.counts).toMatchObject({ success: 2 });
    expect(queue.total).toBe(2);
  });

  it('no gateway for the network: 503, nothing changed, the withdrawal can still be rejected', async () => {
    const id = await withdraw('ERC20', '50');
    const before = await auditCount();
    const r = await adminCall(server, '/api/admin/withdrawals/approve', { id }, rev1.token);
    expect(r.code).toBe(503);
    expect(await auditCount()).toBe(before);
    const view = (await adminGet(server, '/api/admin/withdrawals', { q: id }, rev1.token)).data;
    expect(view.list[0]).toMatchObject({ id, status: 'pending', approvals: [] });
    expect(
      (
        await adminCall(
          server,
          '/api/admin/withdrawals/reject',
          { id, reason: 'ERC-20 sending is paused' },
          rev1.token,
        )
      ).code,
    ).toBe(0);
  });

  it('L5 two operators approving at once are a maker and a checker: no gateway leaves one approval, a gateway sends once', async () => {
    await adminCall(server, '/api/admin/settings', { makerCheckerThreshold: '100' }, admin.token);
    const approvalRows = async (id: string) =>
      (
        await store.driver.query(
          `SELECT operator_id FROM ${schema}.withdrawal_approvals WHERE withdrawal_id = $1`,
          [id],
        )
      ).rows.length;
    const racers = [
      await makeOperator(store, server, 'ola', 'reviewer'),
      await makeOperator(store, server, 'otto', 'reviewer'),
    ];
    const race = (id: string) =>
      Promise.all(racers.map((op) => adminCall(server, '/api/admin/withdrawals/approve', { id }, op.token)));
    // ERC20 has no gateway: the maker's approval is recorded (0), the checker's answers 503 "nothing was sent"
    // and leaves neither an approval nor an audit row. A slow insert widens the window in which both
    // operators have read "no approval yet" (on PostgreSQL; PGlite runs one transaction at a time).
    const erc = await withdraw('ERC20', '500');
    const before = await auditCount();
    await store.driver.query(
      `CREATE FUNCTION ${schema}.slow_approval() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `PERFORM pg_sleep(0.3); RETURN NEW; END $$`,
    );
    await store.driver.query(
      `CREATE TRIGGER slow_approval BEFORE INSERT ON ${schema}.withdrawal_approvals ` +
        `FOR EACH ROW EXECUTE FUNCTION ${schema}.slow_approval()`,
    );
    const answers = await race(erc).finally(() =>
      store.driver.query(`DROP TRIGGER slow_approval ON ${schema}.withdrawal_approvals`),
    );
    expect(answers.map((a) => a.code).sort()).toEqual([0, 503]);
    expect(answers.find((a) => a.code === 503)?.msg).toMatch(/nothing was sent/);
    expect(await approvalRows(erc)).toBe(1);
    expect(await auditCount()).toBe(before + 1);
    expect(
      (await adminCall(server, '/api/admin/withdrawals/reject', { id: erc, reason: 'paused' }, admin.token))
        .code,
    ).toBe(0);
    // TRC20 has one: both answer 0, it is sent once, with both approvals on record.
    const trc = await withdraw('TRC20', '500');
    const sent = sends.length;
    const both = await race(trc);
    expect(both.map((a) => a.code)).toEqual([0, 0]);
    expect(sends.length).toBe(sent + 1);
    expect(await approvalRows(trc)).toBe(2);
    expect((await adminWithdrawal(server, admin.token, trc))?.status).toBe('success');
  });

  it('reject: the member hears it on the socket with the reason, funds are unfrozen once, a second reject is 409', async () => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
    sockets.push(socket);
    const messages: Array<{ type: string; data: Record<string, unknown> | null }> = [];
    socket.on('message', (raw: Buffer) =>
      messages.push(JSON.parse(raw.toString()) as (typeof messages)[number]),
    );
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'bind', data: { token: ann.token, userId: ann.id } }));
    const waitFor = async (match: (m: (typeof messages)[number]) => boolean) => {
      for (let i = 0; i < 100; i++) {
        const found = messages.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`not heard: ${messages.map((m) => m.type).join(',')}`);
    };
    await waitFor((m) => m.type === 'bound' && m.data?.['memberId'] === ann.id);

    const start = await balance(ann);
    const id = await withdraw('TRC20', '300');
    expect(Number(await balance(ann))).toBe(Number(start));
    const r = await adminCall(
      server,
      '/api/admin/withdrawals/reject',
      { id, reason: 'Address on a sanctions list' },
      rev1.token,
    );
    expect(r.code).toBe(0);
    expect(r.data).toMatchObject({ status: 'rejected', reason: 'Address on a sanctions list' });
    const heard = await waitFor(
      (m) => m.type === 'withdrawal' && m.data?.['id'] === id && m.data['status'] === 'rejected',
    );
    expect(heard.data).toMatchObject({
      memberId: ann.id,
      status: 'rejected',
      reason: 'Address on a sanctions list',
    });
    const detail = async () =>
      (await adminGet(server, '/api/admin/members/detail', { id: ann.id }, rev1.token)).data;
    const frozen = (d: AdminMemberDetail) =>
      d.balances.find((b) => b.account === `user:${ann.id}:cash:frozen`)?.amount ?? '0';
    const afterOnce = await detail();
    expect(frozen(afterOnce)).toBe('0');
    expect(
      (await adminCall(server, '/api/admin/withdrawals/reject', { id, reason: 'again' }, rev2.token)).code,
    ).toBe(409);
    expect((await adminCall(server, '/api/admin/withdrawals/approve', { id }, rev2.token)).code).toBe(409);
    expect(await detail()).toEqual(afterOnce);
    const list = (await server.call('/api/withdraw/list', {}, ann)).data;
    expect(list.list.find((w) => w['id'] === id)).toMatchObject({
      status: 'rejected',
      reason: 'Address on a sanctions list',
    });
  });

  it('M4 a manual deposit credit above the threshold needs a second operator; at or below it one credits', async () => {
    await adminCall(server, '/api/admin/settings', { makerCheckerThreshold: '100' }, admin.token);
    const fred = await makeOperator(store, server, 'fred', 'finance');
    const cara = await signUp(server, 'cara');
    const submit = async (n: number, amount: string) =>
      (
        await server.call(
          '/api/recharge/submit',
          { network: 'TRC20', amount, txid: n.toString(16).padStart(64, 'c') },
          cara,
        )
      ).data.id;
    const credit = (id: string, op: TestOperator) =>
      adminCall(server, '/api/admin/deposits/credit', { id, reason: 'Statement matches' }, op.token);
    // A made-up transaction hash, 1,000 USDT: one finance operator alone credits nothing.
    const big = await submit(21, '1000');
    const first = await credit(big, fin);
    expect(first).toMatchObject({ code: 0, data: { status: 'pending', approvalsNeeded: 2 } });
    expect(first.data.approvals.map((a) => a.username)).toEqual(['fiona']);
    expect(await balance(cara)).toBe('0');
    expect((await credit(big, fin)).code).toBe(409);
    expect(await balance(cara)).toBe('0');
    const second = await credit(big, fred);
    expect(second).toMatchObject({ code: 0, data: { status: 'success', approvalsNeeded: 2 } });
    expect(second.data.approvals.map((a) => a.username)).toEqual(['fiona', 'fred']);
    expect(await balance(cara)).toBe('1000');
    const audited = (await auditRows()).filter((r) => r.target === `deposit:${big}`);
    expect(audited.map((r) => [r.action, r.username])).toEqual([
      ['deposit.credit', 'fred'],
      ['deposit.approve', 'fiona'],
    ]);
    // At the threshold: one operator credits.
    const small = await submit(22, '100');
    expect(await credit(small, fred)).toMatchObject({
      code: 0,
      data: { status: 'success', approvalsNeeded: 1 },
    });
    expect(await balance(cara)).toBe('1100');
    // Two at once above it: one maker, one checker, credited once.
    const raced = await submit(23, '500');
    const answers = await Promise.all([credit(raced, fin), credit(raced, fred)]);
    expect(answers.map((a) => a.data.status).sort()).toEqual(['pending', 'success']);
    expect(await balance(cara)).toBe('1600');
  });

  it('deposits, identity checks and members: credit, reject, decide, lock', async () => {
    const bob = await signUp(server, 'bob');
    const submit = (n: number, amount: string) =>
      server.call(
        '/api/recharge/submit',
        { network: 'TRC20', amount, txid: n.toString(16).padStart(64, 'e') },
        bob,
      );
    const d1 = (await submit(11, '40')).data.id;
    const d2 = (await submit(12, '60')).data.id;
    const q = (await adminGet(server, '/api/admin/deposits', { status: 'pending', q: 'bob' }, rev1.token))
      .data;
    expect(q.list.map((d) => d.id)).toEqual([d2, d1]);
    expect(q.counts).toMatchObject({ pending: 2 });
    expect(
      (
        await adminCall(
          server,
          '/api/admin/deposits/credit',
          { id: d1, reason: 'Bank statement matches' },
          fin.token,
        )
      ).data,
    ).toMatchObject({ status: 'success' });
    expect(
      (await adminCall(server, '/api/admin/deposits/credit', { id: d1, reason: 'twice' }, fin.token)).code,
    ).toBe(409);
    expect(
      (
        await adminCall(
          server,
          '/api/admin/deposits/reject',
          { id: d2, reason: 'No such transfer' },
          rev1.token,
        )
      ).data,
    ).toMatchObject({ status: 'rejected', reason: 'No such transfer' });
    expect(await balance(bob)).toBe('40');

    const { url, result: cert } = await submitCert(server, bob, 'Bob Stone', 'X1234567');
    expect(cert.code).toBe(0);
    const certs = (await adminGet(server, '/api/admin/certs', { status: 'review' }, rev1.token)).data;
    const c = certs.list.find((x) => x.username === 'bob');
    if (!c) throw new Error("bob's identity check is not listed");
    expect(c).toMatchObject({
      name: 'Bob Stone',
      frontUrl: url.replace(/^\/uploads\//, '/api/admin/uploads/'),
      status: 'review',
    });
    expect(
      (await adminCall(server, '/api/admin/certs/decide', { id: c.id, passed: false }, rev1.token)).code,
    ).toBe(400);
    expect(
      (
        await adminCall(
          server,
          '/api/admin/certs/decide',
          { id: c.id, passed: false, reason: 'Photo unreadable' },
          rev1.token,
        )
      ).data,
    ).toMatchObject({ status: 'rejected', reason: 'Photo unreadable' });

    const members = (await adminGet(server, '/api/admin/members', { q: 'bo' }, fin.token)).data;
    expect(members.list).toMatchObject([{ username: 'bob', balance: '40', locked: false }]);
    const locked = await adminCall(
      server,
      '/api/admin/members/lock',
      { id: bob.id, locked: true, reason: 'Fraud investigation' },
      admin.token,
    );
    expect(locked.data).toMatchObject({ locked: true });
    expect((await server.call('/api/user/getuser', undefined, bob)).code).toBe(401);
    expect((await server.call('/api/index/login', { username: 'bob', password: 'secret1' })).code).not.toBe(
      0,
    );
    await adminCall(
      server,
      '/api/admin/members/lock',
      { id: bob.id, locked: false, reason: 'Cleared' },
      admin.token,
    );
    expect((await login(server, 'bob')).id).toBe(bob.id);

    const solvency = (await adminGet(server, '/api/admin/solvency', {}, fin.token)).data;
    expect(solvency.holdings.find((h) => h.network === 'TRC20')).toMatchObject({
      amount: '1000',
      address: OUTSIDE_TRC,
    });
    expect(solvency.holdings.find((h) => h.network === 'ERC20')).toMatchObject({ amount: '0', at: null });
    expect(Number(solvency.liabilities)).toBeGreaterThan(0);
  });

  it('operators: create (TOTP secret once), update, disable ends sessions; no self-demotion', async () => {
    const created = await adminCall(
      server,
      '/api/admin/operators/create',
      { username: 'nina', password: OPERATOR_PASSWORD, role: 'finance' },
      admin.token,
    );
    expect(created.code).toBe(0);
    const { operator, totpSecret, otpauthUrl } = created.data;
    expect(otpauthUrl).toContain(`secret=${totpSecret}`);
    expect(
      (
        await adminCall(
          server,
          '/api/admin/operators/create',
          { username: 'NINA', password: OPERATOR_PASSWORD, role: 'finance' },
          admin.token,
        )
      ).code,
    ).toBe(409);
    const nina = await adminLogin(server, { username: 'nina', secret: totpSecret });
    const upd = await adminCall(
      server,
      '/api/admin/operators/update',
      { id: operator.id, role: 'reviewer', disabled: true },
      admin.token,
    );
    expect(upd.data).toMatchObject({ role: 'reviewer', disabled: true });
    expect((await adminGet(server, '/api/admin/me', {}, nina)).code).toBe(401);
    expect(
      (await adminCall(server, '/api/admin/operators/update', { id: admin.id, disabled: true }, admin.token))
        .code,
    ).toBe(409);
    const ops = (await adminGet(server, '/api/admin/operators', {}, admin.token)).data;
    expect(ops.map((o) => o.username)).toContain('nina');
    expect(JSON.stringify(ops)).not.toMatch(/secret|hash/i);
  });

  it('writes one audit row per action, and the database refuses to change or delete one', async () => {
    const rows = await auditRows();
    const actions = rows.map((r) => r.action);
    for (const action of [
      'withdrawal.approve',
      'withdrawal.reject',
      'deposit.credit',
      'deposit.reject',
      'cert.decide',
      'member.lock',
      'member.unlock',
      'operator.create',
      'operator.update',
      'settings.update',
      'operator.login',
      'operator.logout',
    ])
      expect(actions).toContain(action);
    const reject = rows.find(
      (r) => r.action === 'withdrawal.reject' && r.reason === 'Address on a sanctions list',
    );
    expect(reject).toMatchObject({
      username: 'rita',
      role: 'reviewer',
      before: { status: 'pending' },
      after: { status: 'rejected' },
    });
    expect(reject?.target).toMatch(/^withdrawal:\d+$/);
    expect(reject?.ip).toMatch(/127\.0\.0\.1/);
    const filtered = (
      await adminGet(
        server,
        '/api/admin/audit',
        { action: 'withdrawal.approve', operatorId: rev2.id },
        admin.token,
      )
    ).data;
    expect(filtered.list.length).toBe(2);
    expect(filtered.list.every((r) => r.operatorId === rev2.id)).toBe(true);

    await expect(store.driver.query(`UPDATE ${schema}.audit_log SET reason = 'edited'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(store.driver.query(`DELETE FROM ${schema}.audit_log`)).rejects.toThrow(/append-only/);
    await expect(store.driver.query(`TRUNCATE ${schema}.audit_log`)).rejects.toThrow(/append-only/);
  });

  it('answers 400 to bad input on every route and changes nothing', async () => {
    const pending = await withdraw('TRC20', '10');
    const before = await server.engine.diagnostics.stateHash();
    const count = await auditCount();
    const bad: Array<['GET' | 'POST', string, unknown]> = [
      ['POST', '/api/admin/login', { username: 'root', password: OPERATOR_PASSWORD }],
      ['POST', '/api/admin/login', { username: 'root', password: OPERATOR_PASSWORD, totp: '12ab56' }],
      ['POST', '/api/admin/logout', { extra: 1 }],
      ['GET', '/api/admin/me', { extra: 1 }],
      ['GET', '/api/admin/withdrawals', { status: 'lost' }],
      ['GET', '/api/admin/withdrawals', { limit: 101 }],
      ['GET', '/api/admin/withdrawals', { page: 0 }],
      ['POST', '/api/admin/withdrawals/approve', {}],
      ['POST', '/api/admin/withdrawals/approve', { id: [pending] }],
      ['POST', '/api/admin/withdrawals/approve', { id: pending, extra: true }],
      ['POST', '/api/admin/withdrawals/reject', { id: pending }],
      ['POST', '/api/admin/withdrawals/reject', { id: pending, reason: '   ' }],
      ['POST', '/api/admin/withdrawals/reject', { id: pending, reason: 'x'.repeat(501) }],
      ['GET', '/api/admin/deposits', { status: 'paid' }],
      ['POST', '/api/admin/deposits/credit', { id: '1' }],
      ['POST', '/api/admin/deposits/reject', { id: 'a b', reason: 'x' }],
      ['GET', '/api/admin/certs', { status: 'under review' }],
      ['POST', '/api/admin/certs/decide', { id: '1', passed: 'yes' }],
      ['GET', '/api/admin/members', { limit: 'many' }],
      ['GET', '/api/admin/members/detail', {}],
      ['POST', '/api/admin/members/lock', { id: ann.id, locked: true }],
      ['POST', '/api/admin/members/lock', { id: ann.id, locked: 'true', reason: 'x' }],
      ['GET', '/api/admin/audit', { operatorId: 'root' }],
      ['GET', '/api/admin/operators', { page: 1 }],
      ['POST', '/api/admin/operators/create', { username: 'x', password: OPERATOR_PASSWORD, role: 'admin' }],
      ['POST', '/api/admin/operators/create', { username: 'xavier', password: 'short', role: 'admin' }],
      [
        'POST',
        '/api/admin/operators/create',
        { username: 'xavier', password: OPERATOR_PASSWORD, role: 'root' },
      ],
      ['POST', '/api/admin/operators/update', { id: rev1.id }],
      ['POST', '/api/admin/operators/update', { id: rev1.id, role: 'owner' }],
      ['GET', '/api/admin/solvency', { x: 1 }],
      ['GET', '/api/admin/settings', { x: 1 }],
      ['POST', '/api/admin/settings', { makerCheckerThreshold: '-1' }],
      ['POST', '/api/admin/settings', { makerCheckerThreshold: 100 }],
      ['POST', '/api/admin/settings', { makerCheckerThreshold: '1.1234567' }],
    ];
    for (const [method, path, input] of bad) {
      const r =
        method === 'GET'
          ? await adminGetRaw(server, path, input, admin.token)
          : await adminCallRaw(server, path, input, admin.token);
      expect([path, input, r.code]).toEqual([path, input, 400]);
    }
    // Malformed JSON too.
    const raw = await fetch(`${server.url}/api/admin/withdrawals/approve`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
      body: '{"id": ',
    });
    expect(((await raw.json()) as { code: number }).code).toBe(400);
    expect(await server.engine.diagnostics.stateHash()).toBe(before);
    expect(await auditCount()).toBe(count);
    expect((await adminGet(server, '/api/admin/settings', {}, admin.token)).data).toEqual({
      makerCheckerThreshold: '100',
    });
    expect(
      (await adminGet(server, '/api/admin/withdrawals', { q: pending }, admin.token)).data,
    ).toMatchObject({ list: [{ status: 'pending', approvals: [] }] });
  });
});
