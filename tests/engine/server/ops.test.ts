/**
 * The live server as an operator runs it (issue 30, docs/OPERATIONS.md "Health, metrics and shutdown"):
 * /livez and /readyz, Prometheus metrics scraped over HTTP on METRICS_PORT, a request id in every answer
 * and in every log line of the request, and a stop on SIGTERM that drains: /readyz says "draining" while
 * requests are still served, sockets are closed with 1012 (service restart), no new connection is taken,
 * and the request in flight gets its answer before the process exits 0.
 */
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServer } from '../../../server/app';
import { configFromEnv } from '../../../server/config';
import { requestIdMixin } from '../../../server/http/request-log';
import { postgresDriver } from '../../../server/sql-driver';
import { DEFAULT_GROUP_COMMIT } from '../../../server/group-commit';
import { SqlStore } from '../../../server/sql-store';
import { cuttableLink } from './cuttable-link';
import { startChild, stopChildren } from './live-helpers';
import { deposit, signUp, startTestServer, TEST_XPUB } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schemas: string[] = [];

afterAll(async () => {
  stopChildren();
  for (const schema of schemas) await dropSchema(schema);
});

/** One sample of a metric in Prometheus' text format: `name{labels} value`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

function logCapture(): { lines: LogLine[]; stream: Writable } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  return { lines, stream };
}

describe(`probes and metrics (${sqlKind})`, () => {
  it('livez, readyz, X-Request-Id, and /metrics scraped over HTTP on its own port', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const redisUrl = process.env['REDIS_URL'];
    // Group commit as a server on PostgreSQL runs it (server/app.ts openStorage).
    const groupCommit = sqlKind === 'postgres' ? DEFAULT_GROUP_COMMIT : undefined;
    const s = await startTestServer({
      storage: await SqlStore.open(await testDriver(), { schema, groupCommit }),
      config: { metricsPort: 0, redisUrl, databaseUrl: process.env['DATABASE_URL'] },
    });
    try {
      const live = await fetch(`${s.url}/livez`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'live' });
      const ready = await fetch(`${s.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        checks: { storage: 'ok', migrations: 'ok', redis: redisUrl ? 'ok' : 'not configured' },
      });

      // Every answer carries its request id; a client's own X-Request-Id is not trusted without TRUST_PROXY.
      const site = await fetch(`${s.url}/api/site/getsite`, {
        headers: { 'X-Request-Id': 'client-chosen-id' },
      });
      expect(site.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

      const ann = await signUp(s, 'ann');
      await deposit(s, ann, '10', 1);
      expect((await s.call('/api/user/getuser', undefined, ann)).code).toBe(0);
      const refused = await s.call('/api/index/login', { username: 'ann', password: 'wrong-one' });
      expect(refused.code).not.toBe(0);

      // A member's socket, authenticated.
      const socket = new WebSocket(`${s.url.replace('http', 'ws')}/ws`);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const bound = new Promise<void>((resolve) =>
        socket.on('message', (raw: Buffer) => {
          if ((JSON.parse(raw.toString()) as { type: string }).type === 'bound') resolve();
        }),
      );
      socket.send(JSON.stringify({ type: 'bind', data: { token: ann.token, userId: ann.id } }));
      await bound;

      expect(s.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(s.metricsUrl).not.toContain(`:${s.port}/`);
      const scrape = await fetch(String(s.metricsUrl));
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get('content-type')).toContain('text/plain');
      const text = await scrape.text();
      const getuser = { method: 'POST', route: '/api/user/getuser', status: '200' };
      expect(sample(text, 'strata_http_requests_total', getuser)).toBeGreaterThanOrEqual(1);
      expect(
        sample(text, 'strata_http_request_duration_seconds_count', { route: '/api/user/getuser' }),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'strata_http_requests_total', { route: '/readyz', status: '200' })).toBe(1);
      expect(
        sample(text, 'strata_api_refusals_total', { route: '/api/index/login', code: String(refused.code) }),
      ).toBe(1);
      expect(sample(text, 'strata_ws_connections', { auth: 'member' })).toBe(1);
      expect(sample(text, 'strata_jobs', { state: 'dead' })).toBe(0);
      expect(sample(text, 'strata_jobs', { state: 'scheduled' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'strata_feed_outbox_messages')).toBe(0);
      expect(sample(text, 'strata_storage_up')).toBe(1);
      expect(sample(text, 'strata_db_read_batch_size_count')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      if (sqlKind === 'postgres') {
        expect(sample(text, 'strata_db_pool_connections', { state: 'max' })).toBe(10);
        expect(sample(text, 'strata_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
        expect(sample(text, 'strata_feed_notify_batch_size_count')).toBeGreaterThan(0);
        expect(sample(text, 'strata_db_group_commit_units_count')).toBeGreaterThan(0);
        expect(sample(text, 'strata_db_group_commit_retries_total')).toBe(0);
      }
      expect((await fetch(String(s.metricsUrl).replace('/metrics', '/other'))).status).toBe(404);
      socket.terminate();
    } finally {
      await s.close();
    }
  });

  it('readyz is not ready while a migration this build knows has not run', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const store = await SqlStore.open(await testDriver(), { schema });
    const s = await startTestServer({ storage: store });
    try {
      const { rows } = await store.driver.query<{ name: string }>(
        `DELETE FROM ${schema}.strata_migrations WHERE name = (SELECT max(name) FROM ${schema}.strata_migrations) RETURNING name`,
      );
      const readyz = await fetch(`${s.url}/readyz`);
      expect(readyz.status).toBe(503);
      expect(await readyz.json()).toMatchObject({
        status: 'not ready',
        checks: { storage: 'ok', migrations: 'pending migrations' },
      });
      await store.driver.query(`INSERT INTO ${schema}.strata_migrations (name) VALUES ($1)`, [rows[0]?.name]);
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('readyz stays ready while Redis is unreachable and says so (redis: unreachable): the limits are counted per instance meanwhile', async () => {
    const link = await cuttableLink('redis://127.0.0.1:6379/1');
    const s = await startTestServer({
      config: { redisUrl: link.url, redisPrefix: `test-${crypto.randomUUID()}-`, captchaPerIpPerMinute: 2 },
    });
    const readyz = async () => {
      const r = await fetch(`${s.url}/readyz`);
      return { status: r.status, body: (await r.json()) as { status: string; checks: object } };
    };
    try {
      expect(await readyz()).toEqual({
        status: 200,
        body: { status: 'ready', checks: { storage: 'ok', migrations: 'ok', redis: 'ok' } },
      });
      link.cut();
      await expect.poll(readyz, { timeout: 5_000 }).toEqual({
        status: 200,
        body: { status: 'ready', checks: { storage: 'ok', migrations: 'ok', redis: 'unreachable' } },
      });
      // Still ready because no limit is lifted: the captcha limit holds, counted in this instance's memory.
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await s.get('/index/index/verify')).code);
      expect(codes).toEqual([0, 0, 429]);
      link.restore();
      await expect
        .poll(async () => (await readyz()).body.checks, { timeout: 10_000 })
        .toMatchObject({ redis: 'ok' });
    } finally {
      await s.close();
      await link.close();
    }
  });

  it.runIf(sqlKind === 'postgres')(
    'readyz goes not ready while the database is unreachable and ready again when it is back; the outage line carries the request id',
    async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const link = await cuttableLink(String(process.env['DATABASE_URL']));
      const { lines, stream } = logCapture();
      const server = await startServer({
        config: {
          ...configFromEnv({}),
          port: 0,
          metricsPort: 0,
          settleEveryMs: 0,
          pbkdf2Iterations: 1_000,
          walletXpub: TEST_XPUB,
          databaseUrl: link.url,
          schema,
        },
        storage: await SqlStore.open(await postgresDriver(link.url, { poolSize: 2 }), { schema }),
        logger: { level: 'info', stream, mixin: requestIdMixin },
      });
      const readyz = async () => {
        const r = await fetch(`${server.url}/readyz`);
        return { status: r.status, body: (await r.json()) as { status: string; checks: object } };
      };
      try {
        expect((await readyz()).status).toBe(200);
        link.cut();
        await expect.poll(readyz, { timeout: 10_000 }).toEqual({
          status: 503,
          body: {
            status: 'not ready',
            checks: { storage: 'unreachable', migrations: 'unreachable', redis: 'not configured' },
          },
        });
        // A member's call during the outage: 503 in its envelope, and the server's outage line names it.
        const call = await fetch(`${server.url}/api/site/getsite`);
        expect(((await call.json()) as { code: number }).code).toBe(503);
        const id = call.headers.get('x-request-id');
        const outage = lines.find((line) => /storage unreachable/.test(line.msg));
        expect(outage?.level).toBe(40);
        expect(outage?.reqId).toBe(id);
        // The request's own line has the same id once (its logger binds it; the mixin adds no second one).
        const own = lines.filter((line) => line.msg === 'request completed' && line.reqId === id);
        expect(own).toHaveLength(1);
        const scrape = await (await fetch(String(server.metricsUrl))).text();
        expect(sample(scrape, 'strata_storage_up')).toBe(0);
        link.restore();
        await expect.poll(async () => (await readyz()).status, { timeout: 10_000 }).toBe(200);
      } finally {
        await server.close();
        await link.close();
      }
    },
  );
});

describe('SIGTERM', () => {
  it('drains: readyz says draining while requests are served, sockets get 1012, the request in flight is answered, exit 0', async () => {
    const { child, url, exited } = await startChild({
      STORAGE: 'memory',
      DEMO: 'true',
      DRAIN_DELAY_MS: '1500',
      PBKDF2_ITERATIONS: '1000',
    });
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'bind', data: 'heartbeat' }));

    // A request in flight: its headers are in, its body is not.
    const { hostname, port } = new URL(url);
    const inFlight = httpRequest({
      host: hostname,
      port,
      method: 'POST',
      path: '/api/index/login',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '2' },
    });
    const answered = new Promise<{ status: number; connection: string | undefined; body: string }>(
      (resolve, reject) => {
        inFlight.once('response', (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }),
          );
        });
        inFlight.once('error', reject);
      },
    );
    inFlight.write('{');
    inFlight.flushHeaders();

    process.kill(Number(child.pid), 'SIGTERM');
    // During the drain delay: not ready for the balancer, yet a request still answered.
    await expect
      .poll(async () => (await fetch(`${url}/readyz`)).status, { interval: 50, timeout: 5_000 })
      .toBe(503);
    const draining = await fetch(`${url}/readyz`).catch(() => null);
    if (draining) expect(((await draining.json()) as { status: string }).status).toBe('draining');
    // Then sockets are told the service restarts, and no new connection is taken.
    expect(await closed).toBe(1012);
    await expect
      .poll(
        () =>
          fetch(`${url}/livez`).then(
            () => 'answered',
            () => 'refused',
          ),
        { interval: 50, timeout: 5_000 },
      )
      .toBe('refused');
    expect(child.exitCode).toBeNull();
    // The request in flight all along completes and is answered in full.
    inFlight.end('}');
    const answer = await answered;
    expect(answer.status).toBe(200);
    // The engine's own refusal of an empty login (a catalogue code), not the closing server's 503.
    const { code } = JSON.parse(answer.body) as { code: number };
    expect(code).not.toBe(503);
    expect(code).toBeGreaterThan(0);
    expect(answer.connection).toBe('close');
    expect(await exited).toBe(0);
    // A server process starts in this test: at load 30 on 2 cores (2026-11-28) the test took 53 s.
  }, 120_000);
});
