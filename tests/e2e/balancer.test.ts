/**
 * A real load balancer in front of the live server (issue 30 item 3, docs/OPERATIONS.md "Health, metrics and
 * shutdown"): Debian's HAProxy (/usr/sbin/haproxy; .ci/run installs it) in front of two server instances,
 * each a process of its own on one PostgreSQL schema, health-checked on /readyz, with the /ws upgrade passing
 * through. The live app, driven in headless Chromium through HAProxy, keeps working while the instance that
 * holds its socket is stopped (SIGTERM: drain, 1012), started again, and then the other one is stopped:
 * every transfer answers "Done" (never "saved on this device"), no error toast, the page never says it is
 * offline, its socket reconnects to the instance left, and the server's books have every transfer exactly
 * once. Which instance holds the socket is read from each instance's /metrics (strata_ws_connections).
 *
 * HAProxy missing fails the test (it never skips): CI installs it. PostgreSQL is required (two processes on
 * one database); without DATABASE_URL the test is skipped, as the other multi-instance tests are.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../engine/index';
import { SqlStore } from '../../server/sql-store';
import {
  login,
  register,
  startTestServer,
  TEST_XPUB,
  type Session,
  type TestServer,
} from '../engine/server/serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from '../engine/server/sql';
import { forgetStoredMember, path, screenshots, submitLogin, useBrowser } from './journey';
import { buildLiveApp, LIVE_DIST } from './live-server';

const HAPROXY = '/usr/sbin/haproxy';
const browser = useBrowser();
const shot = screenshots('balancer', { fromTop: true });
const suffix = String(Date.now() % 1_000_000);
const ann = `ha${suffix}`;
const bob = `hb${suffix}`;

const processes: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

afterAll(async () => {
  // Every process this file started, by its process group.
  for (const child of processes) {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Instance {
  name: string;
  port: number;
  metricsPort: number;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** Starts one server instance (tests/engine/server/instance-child.ts) on `port`; resolves once it listens. */
async function startInstance(
  name: string,
  port: number,
  metricsPort: number,
  schema: string,
): Promise<Instance> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('../engine/server/instance-child.ts', import.meta.url).pathname],
    {
      env: {
        ...process.env,
        DB_SCHEMA: schema,
        DEMO: 'true',
        // The deposit key the operator's side opened the database with.
        WALLET_XPUB: TEST_XPUB,
        STATIC_DIR: LIVE_DIST,
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        SETTLE_EVERY_MS: '1000',
        PBKDF2_ITERATIONS: '1000',
        // HAProxy checks every 300 ms and takes a server out after 2 failures: 1.5 s covers it.
        DRAIN_DELAY_MS: '1500',
        // HAProxy's X-Request-Id is kept (docs/API.md "Request ids").
        TRUST_PROXY: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    },
  );
  processes.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('READY ')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`instance ${name} exited with ${code} before listening`)));
  });
  return { name, port, metricsPort, child, exited };
}

/** HAProxy's configuration: the members' frontend, the two instances checked on /readyz, a stats page. */
function haproxyConfig(front: number, stats: number, servers: Array<{ name: string; port: number }>): string {
  return [
    'global',
    '  maxconn 512',
    '  log stderr format raw local0',
    'defaults',
    '  mode http',
    '  log global',
    '  option httplog',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // An upgraded /ws connection is a tunnel: it lives as long as the member's page.
    '  timeout tunnel 1h',
    // A connection refused by a stopping or starting instance is tried again on the other one.
    '  retries 3',
    '  option redispatch',
    'frontend members',
    `  bind 127.0.0.1:${front}`,
    '  unique-id-format %[uuid()]',
    '  unique-id-header X-Request-Id',
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    // A check may take longer than its interval on a loaded machine: only a slow /readyz (2 s) counts.
    '  timeout check 2s',
    '  default-server inter 300ms fall 2 rise 2',
    ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`),
    'listen stats',
    `  bind 127.0.0.1:${stats}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

/** What HAProxy thinks of each instance: UP, DOWN, ... (its stats page as CSV). */
async function balancerView(stats: number): Promise<Record<string, string>> {
  const csv = await (await fetch(`http://127.0.0.1:${stats}/stats;csv`)).text();
  const view: Record<string, string> = {};
  for (const line of csv.split('\n')) {
    const [proxy, server, ...rest] = line.split(',');
    // Column 18 (0-based 17) is the status.
    if (proxy === 'instances' && server && server !== 'BACKEND') view[server] = rest[15] ?? '';
  }
  return view;
}

/** The instance's open sockets, from its /metrics. */
async function sockets(instance: Instance): Promise<number> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${instance.metricsPort}/metrics`)).text();
    let total = 0;
    for (const match of text.matchAll(/^strata_ws_connections\{auth="\w+"\} (\d+)$/gm))
      total += Number(match[1]);
    return total;
  } catch {
    return 0;
  }
}

const wallClock = {
  now: () => Date.now(),
  advance: () => {
    throw new Error('the balancer test runs on the wall clock');
  },
} as unknown as ManualClock;

async function fund(s: TestServer, username: string, amount: string): Promise<void> {
  const registered = await register(s, username);
  if (registered.code !== 0) throw new Error(`register ${username}: ${registered.code} ${registered.msg}`);
  const session = await login(s, username);
  await credit(s, session, amount);
  const vip = await s.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, session);
  if (vip.code !== 0) throw new Error(`VIP: ${vip.code} ${vip.msg}`);
}

async function credit(s: TestServer, session: Session, amount: string): Promise<void> {
  const txid = crypto.randomUUID().replaceAll('-', '').padEnd(64, '0');
  const submitted = await s.call('/api/recharge/submit', { network: 'TRC20', amount, txid }, session);
  if (submitted.code !== 0) throw new Error(`deposit: ${submitted.code} ${submitted.msg}`);
  if (!(await s.engine.operations.creditDeposit(submitted.data.id))) throw new Error('deposit not credited');
}

async function transfer(page: Page, to: string, amount: string): Promise<void> {
  await page.getByLabel('Recipient').fill(to);
  await page.getByLabel('Amount').fill(amount);
  await page.getByRole('button', { name: 'Next' }).click();
  await page
    .getByRole('dialog', { name: 'Confirm transfer' })
    .getByRole('button', { name: 'Transfer now' })
    .click();
  // Answered at once: the confirmation panel, never the outbox's "saved on this device".
  await page
    .getByRole('status', { name: 'Transfer complete' })
    .getByText(`${amount}.00 USDT sent to ${to}`)
    .waitFor({ timeout: 30_000 });
}

describe.runIf(sqlKind === 'postgres')('HAProxy in front of two instances (postgres)', () => {
  it('an instance stopped and started again, then the other stopped: the member sees a reconnect at most, nothing is lost', async () => {
    expect(
      existsSync(HAPROXY),
      `${HAPROXY} is missing: install Debian's haproxy (apt-get install haproxy; .ci/run does)`,
    ).toBe(true);
    buildLiveApp();
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    // The operator's side, in this process: members registered and paid in, the books read back.
    const books = await startTestServer({
      storage: await SqlStore.open(await testDriver(), { schema }),
      clock: wallClock,
      config: { demo: true, databaseUrl: process.env['DATABASE_URL'] },
    });
    cleanups.push(() => books.close());
    await fund(books, ann, '300');
    await fund(books, bob, '100');

    const [pa, pb, ma, mb, front, stats] = await Promise.all(Array.from({ length: 6 }, freePort));
    const instances: Record<string, Instance> = {
      a: await startInstance('a', Number(pa), Number(ma), schema),
      b: await startInstance('b', Number(pb), Number(mb), schema),
    };
    const dir = mkdtempSync(join(tmpdir(), 'strata-haproxy-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(
      config,
      haproxyConfig(Number(front), Number(stats), [
        { name: 'a', port: Number(pa) },
        { name: 'b', port: Number(pb) },
      ]),
    );
    // -db: in the foreground, in this test's process group of its own.
    const haproxy = spawn(HAPROXY, ['-f', config, '-db'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    processes.push(haproxy);
    let haproxyErr = '';
    haproxy.stderr?.on('data', (chunk: Buffer) => (haproxyErr += chunk.toString()));
    const up = async () => balancerView(Number(stats)).catch(() => ({}) as Record<string, string>);
    await expect.poll(up, { timeout: 20_000 }).toEqual({ a: 'UP', b: 'UP' });
    const url = `http://127.0.0.1:${front}`;
    // Through the balancer: ready, and the balancer's request id is the one the instance answers with.
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const context = await browser().newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
      baseURL: url,
    });
    // Every toast and every "offline" the page shows, recorded as it appears.
    await context.addInitScript(() => {
      if (!localStorage.getItem('strata.lang')) localStorage.setItem('strata.lang', 'en-US');
      // Kept in sessionStorage: the page is navigated several times.
      const stored = sessionStorage.getItem('strata.test.seen');
      const seen = stored
        ? (JSON.parse(stored) as { toasts: string[]; status: string[] })
        : { toasts: [] as string[], status: [] as string[] };
      (window as unknown as { strataSeen: typeof seen }).strataSeen = seen;
      const note = (list: string[], selector: string) => {
        for (const el of document.querySelectorAll(selector)) {
          const text = el.textContent?.trim();
          const entry = selector === '.toast' ? `${el.className}: ${text}` : text;
          if (text && entry && !list.includes(entry)) {
            list.push(entry);
            sessionStorage.setItem('strata.test.seen', JSON.stringify(seen));
          }
        }
      };
      new MutationObserver(() => {
        note(seen.toasts, '.toast');
        note(seen.status, '[data-testid="pwa-online-status"]');
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await context.newPage();
    const socketsOpened: string[] = [];
    page.on('websocket', (ws) => socketsOpened.push(ws.url()));
    await forgetStoredMember(page);
    await submitLogin(page, ann);
    await expect.poll(() => path(page), { timeout: 20_000 }).not.toBe('/login');
    await page.goto('/user/transfer');
    await page.getByText('Available 250.00 USDT').waitFor({ timeout: 30_000 });

    const holder = async (): Promise<string | null> => {
      const [a, b] = [await sockets(instances['a'] as Instance), await sockets(instances['b'] as Instance)];
      return a + b === 1 ? (a === 1 ? 'a' : 'b') : null;
    };
    let amount = 0;
    const sent: string[] = [];
    /** Stops the instance holding the page's socket while the member transfers; returns its name. */
    const stopHolder = async (): Promise<string> => {
      await expect.poll(holder, { timeout: 20_000 }).not.toBeNull();
      const name = String(await holder());
      const victim = instances[name] as Instance;
      process.kill(Number(victim.child.pid), 'SIGTERM');
      // A transfer while it drains, and one once it is gone: both answered.
      for (const step of [1, 2]) {
        await page.goto('/user/transfer');
        await page.getByText(`Available ${250 - amount}.00 USDT`).waitFor({ timeout: 30_000 });
        const value = String(sent.length + 1);
        try {
          await transfer(page, bob, value);
        } catch (error) {
          await page.screenshot({ path: '/tmp/shots/balancer-failed.png' });
          writeFileSync('/tmp/shots/balancer-haproxy.log', haproxyErr);
          throw error;
        }
        sent.push(value);
        amount += Number(value);
        if (step === 1) expect(await victim.exited).toBe(0);
      }
      await expect.poll(up, { timeout: 10_000 }).toMatchObject({ [name]: 'DOWN' });
      // The page's socket came back, on the instance left.
      const other = name === 'a' ? 'b' : 'a';
      await expect.poll(holder, { timeout: 20_000 }).toBe(other);
      return name;
    };

    const first = await stopHolder();
    // Started again on its port: the balancer takes it back once /readyz says ready.
    const restarted = await startInstance(
      first,
      (instances[first] as Instance).port,
      (instances[first] as Instance).metricsPort,
      schema,
    );
    instances[first] = restarted;
    await expect.poll(up, { timeout: 20_000 }).toEqual({ a: 'UP', b: 'UP' });
    const second = await stopHolder();
    expect(second).not.toBe(first);

    // An account event from the operator's side reaches the page over its reconnected socket.
    await page.goto('/user/transfer');
    await page.getByText(`Available ${250 - amount}.00 USDT`).waitFor({ timeout: 30_000 });
    await credit(books, await login(books, ann), '50');
    await page.getByText(`Available ${300 - amount}.00 USDT`).waitFor({ timeout: 30_000 });
    await shot(page, 'after-two-stops');

    const seen = await page.evaluate(
      () => (window as unknown as { strataSeen: { toasts: string[]; status: string[] } }).strataSeen,
    );
    // Only success toasts (no error, nothing "saved on this device"), and never "offline".
    expect(seen.toasts.filter((entry) => !/\btoast-success: /.test(entry))).toEqual([]);
    // The four transfers' success toasts were seen, so the record covers every page of the journey.
    expect(seen.toasts.filter((entry) => /USDT sent to/.test(entry))).toHaveLength(4);
    expect(seen.status.filter((text) => /offline/i.test(text))).toEqual([]);
    expect(sent).toHaveLength(4);
    // At least three sockets: the first, and one after each stop.
    expect(socketsOpened.length).toBeGreaterThanOrEqual(3);

    // The books: every transfer once, money conserved.
    const session = await login(books, ann);
    const list = await books.call('/api/transfer/list', { limit: 100 }, session);
    expect(list.data.total).toBe(4);
    const user = await books.call('/api/user/getuser', undefined, session);
    // 300 paid in, 50 for VIP 1, 50 credited at the end.
    expect(user.data.available).toBe(String(300 - amount));
    const bobUser = await books.call('/api/user/getuser', undefined, await login(books, bob));
    expect(bobUser.data.available).toBe(String(50 + amount));
    expect(await books.engine.diagnostics.checkInvariants()).toEqual([]);
    expect(haproxyErr).not.toMatch(/ALERT/);
    await context.close();
  }, 240_000);
});
