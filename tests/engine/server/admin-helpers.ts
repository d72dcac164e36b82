/**
 * Operators for the back-office tests (server/admin): created straight in the database (as the CLI does),
 * logged in with a TOTP code computed at the server's manual clock, and a client for the operator API. Also
 * the setup those tests share: a live server on a fresh SQL schema with stand-in chain gateways, the usual
 * operators and a funded member, audit-row failures injected by a trigger on audit_log, and the member
 * actions (a withdrawal, an identity check) the operators decide on.
 */
import { generate } from 'otplib';
import { insertOperator, newOperator } from '../../../server/admin/auth';
import type { AdminWithdrawal, OperatorRole } from '../../../contract/admin/model';
import type { AdminData, AdminParams, AdminRoute } from '../../../contract/admin/routes';
import { inTransaction } from '../../../server/admin/db';
import type { ChainGateway, ChainNetwork } from '../../../server/chain/gateway';
import { SqlStore } from '../../../server/sql-store';
import { deposit, signUp, startTestServer, type Envelope, type Session, type TestServer } from './serve';
import { testDriver } from './sql';

export const OPERATOR_PASSWORD = 'correct horse battery';

export interface TestOperator {
  id: string;
  username: string;
  secret: string;
  token: string;
}

export async function makeOperator(
  store: SqlStore,
  server: TestServer,
  username: string,
  role: OperatorRole,
): Promise<TestOperator> {
  const fields = await newOperator({ username, password: OPERATOR_PASSWORD, role }, 1_000);
  const made = await inTransaction(store.driver, (c) =>
    insertOperator(c, store.schema, fields, server.clock.now()),
  );
  const op = { id: made.operator.id, username, secret: made.totpSecret, token: '' };
  op.token = await adminLogin(server, op);
  return op;
}

/** The code at the server's clock, `stepOffset` 30-s steps away. */
export function totpAt(server: TestServer, secret: string, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(server.clock.now() / 1000) + stepOffset * 30 });
}

/** A fresh time step first (a code is accepted once), then password + TOTP. */
export async function adminLogin(server: TestServer, op: Pick<TestOperator, 'username' | 'secret'>) {
  server.clock.advance(30_000);
  const r = await adminCall(server, '/api/admin/login', {
    username: op.username,
    password: OPERATOR_PASSWORD,
    totp: await totpAt(server, op.secret),
  });
  if (r.code !== 0) throw new Error(`admin login ${op.username}: ${r.code} ${r.msg}`);
  return r.data.token;
}

/** The operator API's route for a method and path (contract/admin/routes.ts). */
type Route<M extends 'GET' | 'POST', P extends string> = Extract<AdminRoute, `${M} ${P}`>;
/** The paths the operator API answers for a method. */
type PathOf<M extends 'GET' | 'POST'> = AdminRoute extends infer R
  ? R extends `${M} ${infer P}`
    ? P
    : never
  : never;

/** A POST of the operator API, typed by its route: the route's input, an envelope of its answer. */
export async function adminCall<P extends PathOf<'POST'>>(
  server: TestServer,
  path: P,
  body?: AdminParams<Route<'POST', P>>,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Envelope<AdminData<Route<'POST', P>>>> {
  // The server answers a route with its envelope (contract/admin/routes.ts types its handlers so).
  return (await adminCallRaw(server, path, body, token, headers)) as Envelope<AdminData<Route<'POST', P>>>;
}

/** A POST of anything (a body the route refuses, a path it does not have): the answer's data is unknown. */
export async function adminCallRaw(
  server: TestServer,
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Envelope> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body ?? {}),
  });
  return (await response.json()) as Envelope;
}

/** A GET of the operator API, typed by its route: the route's query, an envelope of its answer. */
export async function adminGet<P extends PathOf<'GET'>>(
  server: TestServer,
  path: P,
  params?: AdminParams<Route<'GET', P>>,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Envelope<AdminData<Route<'GET', P>>>> {
  // The server answers a route with its envelope (contract/admin/routes.ts types its handlers so).
  return (await adminGetRaw(server, path, params, token, headers)) as Envelope<AdminData<Route<'GET', P>>>;
}

/** A GET with any query (values the route refuses, a path it does not have): the answer's data is unknown. */
export async function adminGetRaw(
  server: TestServer,
  path: string,
  params: unknown = {},
  token?: string,
  headers: Record<string, string> = {},
): Promise<Envelope> {
  const query = new URLSearchParams(
    Object.entries(typeof params === 'object' && params !== null ? params : {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();
  const response = await fetch(`${server.url}${path}${query ? `?${query}` : ''}`, {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return (await response.json()) as Envelope;
}

/** A TRON address outside the platform, to withdraw to. */
export const OUTSIDE_TRC = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A stand-in TRC20 gateway: 19 confirmations, no deposits, free fees; `parts` says how it sends (and more). */
export function stubGateway(
  parts: Pick<ChainGateway, 'sendWithdrawal'> & Partial<ChainGateway>,
): ChainGateway {
  return {
    network: 'TRC20',
    confirmations: 19,
    watch: () => undefined,
    poll: async () => [],
    estimateFee: async () => ({ asset: 'TRX', amount: 0n, units: 0n }),
    ...parts,
  };
}

/** A live server on a SQL store in `schema` (member logins not rate-limited), with these chain gateways. */
export async function startAdminServer(
  schema: string,
  gateways: Partial<Record<ChainNetwork, ChainGateway>> = {},
): Promise<{ store: SqlStore; server: TestServer }> {
  const store = await SqlStore.open(await testDriver(), { schema });
  const server = await startTestServer({ storage: store, config: { loginPerIpPerMinute: 1_000 }, gateways });
  return { store, server };
}

export interface AdminFixture {
  store: SqlStore;
  server: TestServer;
  /** root */
  admin: TestOperator;
  /** rita */
  reviewer: TestOperator;
  /** fiona */
  finance: TestOperator;
  /** A member with `funds` USDT deposited. */
  ann: Session;
}

/** startAdminServer, then the operators root (admin), rita (reviewer), fiona (finance) and the member ann. */
export async function startAdminFixture(
  schema: string,
  gateways: Partial<Record<ChainNetwork, ChainGateway>>,
  funds = '1000',
): Promise<AdminFixture> {
  const { store, server } = await startAdminServer(schema, gateways);
  const admin = await makeOperator(store, server, 'root', 'admin');
  const reviewer = await makeOperator(store, server, 'rita', 'reviewer');
  const finance = await makeOperator(store, server, 'fiona', 'finance');
  const ann = await signUp(server, 'ann');
  await deposit(server, ann, funds, 1);
  return { store, server, admin, reviewer, finance, ann };
}

/**
 * The injected failure: once armed for an action, an insert into audit_log of that action raises (a trigger
 * on audit_log reading a table of armed actions); `disarm` clears them all.
 */
export async function injectAuditFailures(
  store: SqlStore,
): Promise<{ arm: (action: string) => Promise<unknown>; disarm: () => Promise<unknown> }> {
  const schema = store.schema;
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
  return {
    arm: (action) => store.driver.query(`INSERT INTO ${schema}.audit_fail (action) VALUES ($1)`, [action]),
    disarm: () => store.driver.query(`DELETE FROM ${schema}.audit_fail`),
  };
}

/** The member asks for a USDT withdrawal; answers its id (throws when there is none). */
export async function submitWithdrawal(
  server: TestServer,
  session: Session,
  network: ChainNetwork,
  address: string,
  amount: string,
): Promise<string> {
  const r = await server.call(
    '/api/withdraw/submit',
    { currency: 'USDT', network, address, amount, key: 'key1' },
    session,
  );
  if (!r.data?.id) throw new Error(`withdraw: ${r.code} ${r.msg}`);
  return r.data.id;
}

/** The withdrawal as the operator API lists it. */
export async function adminWithdrawal(
  server: TestServer,
  token: string,
  id: string,
): Promise<AdminWithdrawal | undefined> {
  return (await adminGet(server, '/api/admin/withdrawals', { q: id }, token)).data.list[0];
}

/** The member's balance and frozen amount. */
export async function memberWallet(
  server: TestServer,
  session: Session,
): Promise<{ balance: string; frozen: string }> {
  return (await server.call('/api/user/getuser', undefined, session)).data;
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** The member uploads an ID image (a PNG) and submits an identity check with it; `url` is the upload's. */
export async function submitCert(
  server: TestServer,
  session: Session,
  realName: string,
  idNumber: string,
): Promise<{ url: string; result: Envelope }> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'id.png');
  const up = (await (
    await fetch(`${server.url}/api/user/uploads`, { method: 'POST', headers: session.headers, body: form })
  ).json()) as { data: { url: string } };
  const result = await server.call(
    '/api/user/cert',
    { realName, idNumber, frontImage: up.data.url, backImage: up.data.url },
    session,
  );
  return { url: up.data.url, result };
}
