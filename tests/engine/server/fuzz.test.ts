/**
 * Arbitrary requests over real HTTP: whatever the method, path, content type and bytes, the server answers
 * an envelope (HTTP 200, or 204 for a preflight) with a catalogue code, never 500 and never a stack
 * trace, and keeps serving (docs/RULES.md G4-G6 on the wire). Bodies include deep nesting, NUL characters,
 * oversized payloads and contract bodies with wrong types; paths include traversal attempts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './serve';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { maxBodyBytes: 4096 } });
});

afterAll(async () => {
  await server.close();
});

const paths = fc.oneof(
  fc.constantFrom(
    '/api/index/login',
    '/api/index/register',
    '/api/user/getuser',
    '/api/user/uploads',
    '/api/transfer/submit',
    '/index/index/verify',
    '/uploads/1-0000000000000000',
    '/api/sync/push',
  ),
  fc.stringMatching(/^\/[a-zA-Z0-9/%._~-]{0,40}$/),
  fc.constantFrom(
    '/../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/api/..%2f..%2fpackage.json',
    '/%00',
    '//api//user',
  ),
);

/** A value nested `depth` deep in objects or arrays. */
const deep = fc
  .tuple(fc.integer({ min: 1, max: 200 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '0' + '}'.repeat(depth),
  );

/** Contract bodies with fields of the wrong type, NUL characters or huge strings. */
const hostile = fc
  .record({
    username: fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.constant('a\u0000b'),
      fc.array(fc.string()),
    ),
    password: fc.oneof(fc.string(), fc.double(), fc.constant({}), fc.constant('x'.repeat(5000))),
    amount: fc.oneof(
      fc.string(),
      fc.double(),
      fc.bigInt().map(String),
      fc.constant('1e999'),
      fc.constant('-0'),
    ),
    network: fc.oneof(fc.constantFrom('TRC20', 'ERC20', 'BTC', ''), fc.integer()),
  })
  .map((value) => JSON.stringify(value));

const bodies = fc.oneof(
  fc.json(),
  fc.string({ maxLength: 300 }),
  fc.uint8Array({ maxLength: 6000 }),
  deep,
  hostile,
  fc.string({ maxLength: 50 }).map((s) => `{"username":"${s}\u0000","password":"p"}`),
  fc.constant('--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc\r\n--x--\r\n'),
);

const types = fc.constantFrom(
  'application/json',
  'text/plain',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/x-www-form-urlencoded',
);

describe('http fuzz', () => {
  it('G6 any request gets an envelope and the server carries on', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        paths,
        bodies,
        types,
        fc.option(fc.stringMatching(/^[\x21-\x7e]{0,80}$/)),
        async (method, path, body, type, token) => {
          const headers: Record<string, string> = { 'Content-Type': type };
          if (token !== null) Object.assign(headers, { Authorization: token, UserId: token.slice(0, 5) });
          const res = await fetch(`${server.url}${path}`, {
            method,
            headers,
            body: method === 'GET' ? undefined : body instanceof Uint8Array ? body : String(body),
          });
          if (method === 'OPTIONS') {
            expect(res.status).toBe(204);
            return;
          }
          expect(res.status).toBe(200);
          const text = await res.text();
          if (res.headers.get('content-type')?.startsWith('application/json')) {
            const envelope = JSON.parse(text) as { code: unknown; msg: unknown };
            expect(typeof envelope.code).toBe('number');
            expect(typeof envelope.msg).toBe('string');
            expect(envelope.code).not.toBe(500);
            expect(text).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
          }
        },
      ),
      { numRuns: 150 },
    );
    expect((await server.get('/api/site/getsite')).code).toBe(0);
  });
});
