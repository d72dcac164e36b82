/**
 * The feed at /ws (API.md "Real-time feed"): market messages for every bound socket, account events only
 * for the socket authenticated as their member, nothing before bind, and revocation on logout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { isAccountMessage, type FeedMessage } from '../../../engine/index';
import { SqlStore } from '../../../server/sql-store';
import { deposit, login, signUp, startTestServer, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';
import { venueSource } from '../markets/venue-source';

/** What a client sends: `bind` with its heartbeat text (and, in these tests, messages the server ignores). */
interface Sent {
  type: string;
  data: unknown;
}

/** What the server sends (API.md "Real-time feed"), parsed from its JSON. */
type Msg = FeedMessage;

interface Client {
  socket: WebSocket;
  messages: Msg[];
  waitFor(match: (m: Msg) => boolean, ms?: number): Promise<Msg>;
}

const schema = freshSchema();
let server: TestServer;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  // A live server with a market (the feed's market messages are the ticks these tests wait on).
  server = await startTestServer({
    storage: await SqlStore.open(await testDriver(), { schema }),
    market: venueSource(1),
  });
});

afterAll(async () => {
  for (const s of sockets) s.terminate();
  await server.close();
  await dropSchema(schema);
});

async function connect(): Promise<Client> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
  sockets.push(socket);
  const messages: Msg[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (raw: Buffer) => {
    messages.push(JSON.parse(raw.toString()) as Msg);
    for (const wake of waiters) wake();
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waitFor = (match: (m: Msg) => boolean, ms = 5_000) =>
    new Promise<Msg>((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching message among ${messages.map((m) => m.type).join(',')}`));
      }, ms);
      waiters.add(check);
      check();
    });
  return { socket, messages, waitFor };
}

function send(client: Client, message: Sent): void {
  client.socket.send(JSON.stringify(message));
}

const bound = (client: Client, memberId: string | null) =>
  client.waitFor((m) => m.type === 'bound' && m.data.memberId === memberId);

const balanceOf = (memberId: string) => (m: Msg) => m.type === 'balance' && m.data.memberId === memberId;

async function tick(): Promise<void> {
  server.clock.advance(1_000);
  await server.engine.settle();
}

/** Frames reach the hub asynchronously: tick until the socket sees a match (it must within a few ticks). */
async function tickUntil(client: Client, match: (m: Msg) => boolean): Promise<Msg> {
  for (let i = 0; i < 20; i++) {
    await tick();
    const found = await client.waitFor(match, 100).catch(() => undefined);
    if (found) return found;
  }
  throw new Error('no matching message after 20 ticks');
}

describe(`ws (${sqlKind})`, () => {
  let ann: Session;
  let bob: Session;

  beforeAll(async () => {
    ann = await signUp(server, 'ann');
    bob = await signUp(server, 'bob');
  });

  it('M8 a socket receives nothing before bind, then the market feed every tick', async () => {
    const c = await connect();
    await tick();
    await new Promise((r) => setTimeout(r, 50));
    expect(c.messages).toEqual([]);
    send(c, { type: 'bind', data: 'strata' });
    const ticker = await tickUntil(c, (m) => m.type === 'ticker24hr');
    expect(Array.isArray(ticker.data)).toBe(true);
    await c.waitFor((m) => m.type === 'Curr');
    await c.waitFor((m) => m.type === 'Kline');
  });

  it('G7 a balance event goes only to the socket authenticated as its member', async () => {
    const a = await connect();
    const b = await connect();
    const anon = await connect();
    send(a, { type: 'bind', data: { heartbeat: 'strata', token: ann.token, userId: ann.id } });
    send(b, { type: 'auth', data: { token: bob.token, userId: bob.id } });
    send(anon, { type: 'bind', data: 'strata' });
    // `auth` with null signs a socket out and is answered, so the hub has surely seen the bind before it.
    send(anon, { type: 'auth', data: null });
    await bound(a, ann.id);
    await bound(b, bob.id);
    await bound(anon, null);

    await deposit(server, ann, '40', 1);
    await a.waitFor(balanceOf(ann.id));
    await a.waitFor((m) => m.type === 'deposit');
    await anon.waitFor((m) => m.type === 'ticker24hr');
    for (const other of [b, anon]) {
      expect(other.messages.filter((m) => isAccountMessage(m) && m.data.memberId === ann.id)).toEqual([]);
    }
  });

  it('A6 a wrong token is refused, and logout stops account events on the socket at once', async () => {
    const bad = await connect();
    send(bad, { type: 'auth', data: { token: 'nope', userId: ann.id } });
    await bound(bad, null);

    const second = await login(server, 'ann');
    const a = await connect();
    send(a, { type: 'auth', data: { token: second.token, userId: second.id } });
    await bound(a, ann.id);
    expect((await server.call('/api/index/logout', undefined, second)).code).toBe(0);
    await bound(a, null);

    await deposit(server, ann, '5', 2);
    await a.waitFor((m) => m.type === 'ticker24hr');
    expect(a.messages.some(balanceOf(ann.id))).toBe(false);
    expect(bad.messages.some(balanceOf(ann.id))).toBe(false);
  });

  it('unknown paths refuse the upgrade and garbage frames are ignored', async () => {
    const refused = new WebSocket(`${server.url.replace('http', 'ws')}/other`);
    await new Promise<void>((resolve) => refused.once('error', () => resolve()));
    const c = await connect();
    c.socket.send('not json');
    c.socket.send(JSON.stringify({ type: 'bind', data: { token: 7 } }));
    await tickUntil(c, (m) => m.type === 'ticker24hr');
  });
});

describe('ws ping', () => {
  it('bound sockets get a ping each period; a socket that never binds gets nothing', async () => {
    const quick = await startTestServer({ pingEveryMs: 40 });
    try {
      const url = `${quick.url.replace('http', 'ws')}/ws`;
      const open = async () => {
        const socket = new WebSocket(url);
        const got: Msg[] = [];
        socket.on('message', (raw: Buffer) => got.push(JSON.parse(raw.toString()) as Msg));
        await new Promise((resolve) => socket.once('open', resolve));
        return { socket, got };
      };
      const bound = await open();
      const silent = await open();
      bound.socket.send(JSON.stringify({ type: 'bind', data: 'strata' }));
      // Two pings to the bound socket mean at least two periods went by, in which the silent one got nothing.
      const pings = () => bound.got.filter((m) => m.type === 'ping');
      await expect.poll(() => pings().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      expect(typeof pings()[0]?.data).toBe('number');
      expect(silent.got).toEqual([]);
      bound.socket.terminate();
      silent.socket.terminate();
    } finally {
      await quick.close();
    }
  });
});
