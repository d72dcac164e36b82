/**
 * Operators for the back-office tests (server/admin): created straight in the database (as the CLI does),
 * logged in with a TOTP code computed at the server's manual clock, and a client for the operator API.
 */
import { generate } from 'otplib';
import { insertOperator } from '../../../server/admin/auth';
import type { OperatorRole } from '../../../server/admin/contract';
import { inTransaction } from '../../../server/admin/db';
import type { SqlStore } from '../../../server/sql-store';
import type { Envelope, TestServer } from './serve';

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
  const made = await inTransaction(store.driver, (c) =>
    insertOperator(
      c,
      store.schema,
      { username, password: OPERATOR_PASSWORD, role },
      server.clock.now(),
      1_000,
    ),
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
  return (r.data as { token: string }).token;
}

export async function adminCall(
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

export async function adminGet(
  server: TestServer,
  path: string,
  params: Record<string, string | number> = {},
  token?: string,
  headers: Record<string, string> = {},
): Promise<Envelope> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  const response = await fetch(`${server.url}${path}${query ? `?${query}` : ''}`, {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return (await response.json()) as Envelope;
}
