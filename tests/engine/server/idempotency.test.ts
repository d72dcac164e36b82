/**
 * Idempotency-Key on direct calls (docs/SERVER.md "Idempotency"): the same key answers the first result and
 * applies once, even when the retries arrive together; a key that is not well formed is refused with 400
 * and changes nothing; calls that are not the member's own mutations ignore it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deposit, signUp, startTestServer, type Envelope, type Session, type TestServer } from './serve';

let server: TestServer;
let ann: Session;

beforeAll(async () => {
  server = await startTestServer();
  ann = await signUp(server, 'ann');
  const bob = await signUp(server, 'bob');
  await deposit(server, ann, '100', 1);
  // A transfer's recipient must hold VIP1 (rule T4).
  await deposit(server, bob, '100', 2);
  expect((await server.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, bob)).code).toBe(0);
});

afterAll(async () => {
  await server.close();
});

async function transfer(key: string | undefined, amount = '10'): Promise<Envelope> {
  const response = await fetch(`${server.url}/api/transfer/submit`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...ann.headers,
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: JSON.stringify({ account: 'bob', amount }),
  });
  return (await response.json()) as Envelope;
}

async function balance(): Promise<string> {
  return ((await server.call('/api/user/getuser', {}, ann)).data as { balance: string }).balance;
}

describe('Idempotency-Key', () => {
  it('Y1 a retried key answers the first result and moves the money once', async () => {
    const [first, ...retries] = await Promise.all([transfer('t-1'), transfer('t-1'), transfer('t-1')]);
    expect(first?.code).toBe(0);
    for (const retry of retries) expect(retry).toEqual(first);
    expect(await balance()).toBe('90');
    // Later, with another amount even: still the first answer, nothing applied.
    expect(await transfer('t-1', '20')).toEqual(first);
    expect(await balance()).toBe('90');
    // Another key is another call.
    expect((await transfer('t-2')).code).toBe(0);
    expect(await balance()).toBe('80');
  });

  it('a malformed key is refused with 400 and changes nothing; reads ignore the key', async () => {
    expect((await transfer('no spaces allowed')).code).toBe(400);
    expect((await transfer('x'.repeat(101))).code).toBe(400);
    expect(await balance()).toBe('80');
    const read = await fetch(`${server.url}/api/user/getuser`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...ann.headers, 'Idempotency-Key': 'r-1' },
      body: '{}',
    });
    expect(((await read.json()) as Envelope).code).toBe(0);
  });
});
