/**
 * Route schemas (issue 11 item 1): every JSON POST call of the member API has a Fastify body schema generated
 * from the engine's own zod schema, so a malformed body is refused by Fastify's validator with the engine's
 * 400 envelope and never reaches the engine; what JSON Schema cannot say (an amount's transform) is left to
 * the engine, which answers as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineRequest } from '../../../engine/index';
import { startTestServer, type TestServer } from './serve';

let server: TestServer;
const reached: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const handle = server.engine.handle.bind(server.engine);
  server.engine.handle = (request: EngineRequest) => {
    reached.push(String(request.path));
    return handle(request);
  };
});

afterAll(async () => {
  await server.close();
});

async function post(path: string, body: unknown): Promise<{ code: number; msg: string }> {
  reached.length = 0;
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { code: number; msg: string };
}

describe('route schemas from the engine', () => {
  it('every JSON POST call has a Fastify route, at its contract spelling and in lower case', () => {
    const calls = server.engine.diagnostics
      .routes()
      .filter((r) => r.method === 'POST' && r.body && !r.path.includes('/:'));
    expect(calls.length).toBeGreaterThan(40);
    for (const { path } of calls) {
      expect(server.app.hasRoute({ method: 'POST', url: path })).toBe(true);
      expect(server.app.hasRoute({ method: 'POST', url: path.toLowerCase() })).toBe(true);
    }
  });

  it('G6 malformed bodies answer the engine code 400 without reaching the engine', async () => {
    const bad: Array<[string, unknown, RegExp]> = [
      ['/api/index/login', { username: 5, password: 'x' }, /username: must be string/],
      ['/api/index/login', { username: 'ann' }, /password: is required/],
      ['/api/index/login', { username: 'ann', password: 'x', admin: true }, /unknown field "admin"/],
      ['/api/transfer/submit', { account: ['bob'], amount: '1' }, /account/],
      ['/api/order/place', { symbol: 'BTC/USDT', market: 'moon' }, /Invalid request/],
      ['/api/Viplist/Buyvip', { level: 'gold', key: 'k' }, /level/],
      ['/api/viplist/buyvip', { level: 1, key: 'k', extra: 1 }, /unknown field "extra"/],
      ['/api/market/list', { page: 1 }, /unknown field "page"/],
      ['/api/sync/push', { clientId: 'c', mutations: [{ id: 'bad id!' }] }, /mutations/],
      ['/api/index/login', { username: 'a'.repeat(301), password: 'x' }, /username/],
    ];
    for (const [path, body, msg] of bad) {
      const answer = await post(path, body);
      expect(answer.code, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.msg).toMatch(msg);
      expect(answer.msg).toMatch(/^Invalid request: /);
      expect(reached).toEqual([]);
      // The engine itself answers the same code for the same body.
      const direct = await server.engine.handle({ method: 'POST', path, headers: {}, body });
      expect(direct.body.code).toBe(400);
    }
  });

  it('well-formed bodies reach the engine; what JSON Schema cannot say is checked there', async () => {
    const wrong = await post('/api/index/login', { username: 'nobody', password: 'x' });
    expect(wrong.code).toBe(2016);
    expect(reached).toEqual(['/api/index/login']);
    // No body at all is the empty object, as before.
    reached.length = 0;
    const list = await fetch(`${server.url}/api/market/list`, { method: 'POST' });
    expect(((await list.json()) as { code: number }).code).toBe(0);
    expect(reached).toEqual(['/api/market/list']);
    // An amount is any JSON value to the schema (a transform): the engine refuses a number.
    const amount = await post('/api/withdraw/fee', { network: 'TRC20', amount: 5 });
    expect(amount.code).toBe(400);
    expect(reached).toEqual(['/api/withdraw/fee']);
  });
});
