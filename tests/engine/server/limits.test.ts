/**
 * The HTTP edge (docs/SERVER.md "HTTP"): security headers, rate limits shared through Redis by two
 * instances and kept (in memory) when Redis is unreachable, per-IP login limits, anonymous socket limits,
 * refused bodies (deep, NUL, not an object) with catalogue codes, short 404s, and logs without secrets.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServer } from '../../../server/app';
import { configFromEnv } from '../../../server/config';
import { MAX_JSON_DEPTH } from '../../../server/http/json-body';
import { startTestServer, TEST_XPUB, type Envelope, type TestServer } from './serve';

const REDIS = 'redis://127.0.0.1:6379/1';

async function post(url: string, path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  return {
    status: response.status,
    headers: response.headers,
    envelope: (await response.json()) as Envelope,
  };
}

/** A server on memory storage whose log lines (pino, at `level`) go to `write`. */
function loggingServer(level: 'info' | 'debug', write: (chunk: string) => void) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(chunk.toString());
      done();
    },
  });
  return startServer({
    config: {
      ...configFromEnv({}),
      port: 0,
      // Files run side by side: the default metrics port (9464) would be taken by whichever started first.
      metricsPort: null,
      settleEveryMs: 0,
      pbkdf2Iterations: 1_000,
      walletXpub: TEST_XPUB,
    },
    storage: 'memory',
    logger: { level, stream },
  });
}

describe('http edge', () => {
  it('headers: nosniff, a CSP with frame-ancestors none, no HSTS over plain HTTP, HSTS behind a TLS proxy', async () => {
    const server = await startTestServer({ config: { trustProxy: 1 } });
    try {
      const plain = await fetch(`${server.url}/api/site/getsite`);
      expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
      expect(plain.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(plain.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(plain.headers.get('strict-transport-security')).toBeNull();
      expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const tls = await fetch(`${server.url}/api/site/getsite`, {
        headers: { 'X-Forwarded-Proto': 'https' },
      });
      expect(tls.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    } finally {
      await server.close();
    }
  });

  it('G5 deep nesting, NUL characters and non-object bodies answer 400; a long unknown path is not echoed', async () => {
    const server = await startTestServer();
    try {
      const deep = '{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1);
      for (const body of [
        deep,
        '{"username":"a\\u0000b","password":"x"}',
        '[1,2]',
        '"text"',
        '{"__proto__":{}}',
      ]) {
        const r = await post(server.url, '/api/index/login', body);
        expect(r.status).toBe(200);
        expect(r.envelope.code).toBe(400);
      }
      const long = `/api/${'x'.repeat(10_000)}`;
      const r = await post(server.url, long, '{}');
      expect(r.envelope.code).toBe(404);
      expect(r.envelope.msg.length).toBeLessThanOrEqual(120);
      expect((await server.get('/api/site/getsite')).code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('A3 two instances on one Redis count a client together; with Redis unreachable the limit still holds', async () => {
    const prefix = `test-${crypto.randomUUID()}-`;
    const config = { redisUrl: REDIS, redisPrefix: prefix, captchaPerIpPerMinute: 4 };
    const [a, b] = [await startTestServer({ config }), await startTestServer({ config })];
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await a.get('/index/index/verify')).code);
      for (let i = 0; i < 3; i++) codes.push((await b.get('/index/index/verify')).code);
      expect(codes.filter((c) => c === 0)).toHaveLength(4);
      expect(codes.slice(4)).toEqual([429, 429]);
    } finally {
      await a.close();
      await b.close();
    }
    const down = await startTestServer({
      config: { redisUrl: 'redis://127.0.0.1:1/1', captchaPerIpPerMinute: 2 },
    });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await down.get('/index/index/verify')).code);
      expect(codes).toEqual([0, 0, 429]);
      expect((await down.get('/api/site/getsite')).code).toBe(0);
    } finally {
      await down.close();
    }
  });

  it('A2 the global login limit counts logins from every address, besides the per-IP limit (audit M1)', async () => {
    const config = { loginGlobalPerMinute: 30, loginPerIpPerMinute: 2 };
    const login = async (server: TestServer, address: string, i: number) =>
      (
        await server.app.inject({
          method: 'POST',
          url: '/api/index/login',
          remoteAddress: address,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ username: `nobody${i}`, password: 'wrong-one' }),
        })
      ).json<Envelope>().code;
    const server = await startTestServer({ config });
    try {
      // 90 logins from 90 addresses in a minute: the first 30 are answered, the other 60 refused.
      const codes: number[] = [];
      for (let i = 0; i < 90; i++) codes.push(await login(server, `10.0.0.${i + 1}`, i));
      expect(codes.slice(0, 30)).not.toContain(429);
      expect(codes.slice(30).filter((c) => c === 429)).toHaveLength(60);
    } finally {
      await server.close();
    }
    // Under the global limit, one address still gets its own 2 a minute.
    const fresh = await startTestServer({ config });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push(await login(fresh, '10.1.0.1', i));
      expect(codes.slice(0, 2)).not.toContain(429);
      expect(codes[2]).toBe(429);
    } finally {
      await fresh.close();
    }
  });

  it('A2 logins are limited per client IP; anonymous sockets per IP', async () => {
    const server = await startTestServer({ config: { loginPerIpPerMinute: 3, anonymousSocketsPerIp: 2 } });
    const sockets: WebSocket[] = [];
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await server.call('/api/index/login', { username: `nobody${i}`, password: 'x' })).code);
      expect(codes.at(-1)).toBe(429);
      expect(codes.slice(0, 3)).not.toContain(429);
      const closes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
        sockets.push(socket);
        await new Promise((resolve) => socket.once('open', resolve));
        socket.once('close', (code) => closes.push(code));
      }
      await expect.poll(() => closes).toEqual([1013]);
    } finally {
      for (const s of sockets) s.terminate();
      await server.close();
    }
  });

  it('logs carry request ids and no password, token or key', async () => {
    const lines: string[] = [];
    const server = await loggingServer('info', (chunk) => lines.push(chunk));
    try {
      await post(server.url, '/api/index/login', '{"username":"ann","password":"hunter2-secret"}', {
        Authorization: 'tok-secret-value',
        UserId: '1',
      });
      await post(server.url, '/api/index/login', '{"username": ');
    } finally {
      await server.close();
    }
    const text = lines.join('');
    expect(text).toMatch(/"reqId":"[0-9a-f-]{36}"/);
    expect(text).not.toMatch(/hunter2|tok-secret-value/);
  });

  it('at info, one line per refused or failed request and none per successful one; at debug, every request', async () => {
    const run = async (level: 'info' | 'debug') => {
      const lines: Array<{ msg?: string; reqId?: string; res?: { statusCode?: number }; req?: unknown }> = [];
      const server = await loggingServer(level, (chunk) => {
        for (const line of chunk.split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      });
      try {
        for (let i = 0; i < 3; i++) await post(server.url, '/api/market/list', '{}');
        await post(server.url, '/api/index/login', '{"username":"nobody","password":"wrong-one"}');
        await post(server.url, '/api/no/such/path', '{}');
      } finally {
        await server.close();
      }
      return lines.filter((l) => l.msg === 'request completed');
    };
    const info = await run('info');
    // The failed login and the unknown path (envelope codes other than 0), each with its request id.
    expect(info).toHaveLength(2);
    for (const line of info) expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(info)).not.toMatch(/wrong-one/);
    const debug = await run('debug');
    expect(debug).toHaveLength(5);
    expect(debug[0]?.res?.statusCode).toBe(200);
  });
});
