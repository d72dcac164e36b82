/**
 * Idempotency-Key on direct calls (docs/SERVER.md "Idempotency"): the same key answers the first result and
 * applies once, even when the retries arrive together; the same key with another body answers 422; a key that is not well formed is refused with 400
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
  return (await server.call('/api/user/getuser', undefined, ann)).data.balance;
}

describe('Idempotency-Key', () => {
  it('Y1 a retried key answers the first result and moves the money once', async () => {
    const [first, ...retries] = await Promise.all([transfer('t-1'), transfer('t-1'), transfer('t-1')]);
    expect(first?.code).toBe(0);
    for (const retry of retries) expect(retry).toEqual(first);
    expect(await balance()).toBe('90');
    // Later, the same body with its fields in another order: the first answer again.
    const reordered = await fetch(`${server.url}/api/transfer/submit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...ann.headers, 'Idempotency-Key': 't-1' },
      body: JSON.stringify({ amount: '10', account: 'bob' }),
    });
    expect(await reordered.json()).toEqual(first);
    expect(await balance()).toBe('90');
    // Another key is another call.
    expect((await transfer('t-2')).code).toBe(0);
    expect(await balance()).toBe('80');
  });

  it('Y12 a key reused with another body, or for another call, answers 422 and applies nothing (audit L6)', async () => {
    expect(await transfer('t-3')).toMatchObject({ code: 0 });
    const before = await balance();
    const reused = await transfer('t-3', '20');
    expect(reused.code).toBe(422);
    expect(reused.msg).toMatch(/different request/);
    expect(await balance()).toBe(before);
    const otherCall = await fetch(`${server.url}/api/Viplist/Buyvip`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...ann.headers, 'Idempotency-Key': 't-3' },
      body: JSON.stringify({ level: 1, key: 'key1' }),
    });
    expect(((await otherCall.json()) as Envelope).code).toBe(422);
    expect(await balance()).toBe(before);
    // The first body still gets the first answer.
    expect((await transfer('t-3')).code).toBe(0);
    expect(await balance()).toBe(before);
  });

  it('a malformed key is refused with 400 and changes nothing; reads ignore the key', async () => {
    const before = await balance();
    expect((await transfer('no spaces allowed')).code).toBe(400);
    expect((await transfer('x'.repeat(101))).code).toBe(400);
    expect(await balance()).toBe(before);
    const read = await fetch(`${server.url}/api/user/getuser`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...ann.headers, 'Idempotency-Key': 'r-1' },
      body: '{}',
    });
    expect(((await read.json()) as Envelope).code).toBe(0);
  });
});
