/**
 * The real-time feed at /ws (API.md "Real-time feed"): the engine's feed, forwarded as `{ type, data }`.
 * Nothing reaches a socket before its first `bind`; market messages go to every bound socket (a slow one
 * skips them until it drains), account events only to sockets authenticated as their member, re-checked at
 * every bind and after calls that may end sessions. Pings, limits, close codes and authentication:
 * docs/SERVER.md "WebSocket `/ws`". The upgrade itself is @fastify/websocket's (server/http.ts).
 */
import type { RawData, WebSocket } from 'ws';
import {
  callEngine,
  isAccountMessage,
  type Engine,
  type EngineFeedMessage,
  type EngineResponse,
  type FeedMessage,
} from '../engine/index';

const PING_EVERY_MS = 30_000;
const IDLE_LIMIT_MS = 3 * 58_000;
const FIRST_BIND_MS = 30_000;
const SLOW_CLIENT_BYTES = 1 << 20;
/** A socket this far behind is not reading at all: it is dropped before it holds more memory. */
const DEAD_CLIENT_BYTES = 16 << 20;
const MAX_AUTH_PER_MINUTE = 20;

/** Calls after which a session may have ended. */
const SESSION_CHANGING = new Set([
  '/api/index/logout',
  '/api/user/editPsw',
  '/api/index/forget',
  '/api/index/forgetKey',
  '/api/security/sessions/logout',
  '/api/security/sessions/logoutOthers',
]);

interface Client {
  socket: WebSocket;
  ip: string;
  bound: boolean;
  credentials: { token: string; userId: string } | null;
  memberId: string | null;
  lastSeen: number;
  authTimes: number[];
}

function parse(raw: RawData): { type: string; data: unknown } | null {
  try {
    const value: unknown = JSON.parse(raw.toString());
    if (typeof value !== 'object' || value === null) return null;
    const { type, data } = value as { type?: unknown; data?: unknown };
    return typeof type === 'string' ? { type, data } : null;
  } catch {
    return null;
  }
}

function credentialsOf(data: unknown): { token: string; userId: string } | null | undefined {
  if (data === null) return null;
  if (typeof data !== 'object') return undefined;
  const { token, userId } = data as { token?: unknown; userId?: unknown };
  if (typeof token !== 'string' || (typeof userId !== 'string' && typeof userId !== 'number'))
    return undefined;
  return { token: token.slice(0, 512), userId: String(userId).slice(0, 64) };
}

function memberOf(message: EngineFeedMessage): string | null {
  return isAccountMessage(message) ? message.data.memberId : null;
}

export class SocketHub {
  private readonly clients = new Set<Client>();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  private readonly now: () => number;
  private readonly anonymousPerIp: number;

  constructor(
    private readonly engine: Engine,
    options: { now?: () => number; pingEveryMs?: number; anonymousPerIp?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.anonymousPerIp = options.anonymousPerIp ?? 20;
    this.unsubscribe = engine.subscribe((message) => this.deliver(message));
    this.timer = setInterval(() => this.tick(), options.pingEveryMs ?? PING_EVERY_MS);
    this.timer.unref();
  }

  /** Takes a socket @fastify/websocket upgraded on /ws, from client address `ip`. */
  accept(socket: WebSocket, ip: string): void {
    socket.on('error', () => undefined);
    let anonymous = 0;
    for (const c of this.clients) if (c.ip === ip && c.memberId === null) anonymous++;
    if (anonymous >= this.anonymousPerIp) {
      socket.close(1013, 'too many sockets');
      return;
    }
    const client: Client = {
      socket,
      ip,
      bound: false,
      credentials: null,
      memberId: null,
      lastSeen: 0,
      authTimes: [],
    };
    client.lastSeen = this.now();
    this.clients.add(client);
    const firstBind = setTimeout(() => {
      if (!client.bound) socket.close(1008, 'bind expected');
    }, FIRST_BIND_MS);
    socket.on('message', (raw: RawData) => void this.receive(client, raw));
    socket.on('close', () => {
      clearTimeout(firstBind);
      this.clients.delete(client);
    });
  }

  private async receive(client: Client, raw: RawData): Promise<void> {
    client.lastSeen = this.now();
    const message = parse(raw);
    if (!message || (message.type !== 'bind' && message.type !== 'auth')) return;
    const credentials =
      message.type === 'bind' && typeof message.data === 'string' ? undefined : credentialsOf(message.data);
    client.bound = true;
    if (credentials === undefined && message.type === 'bind') {
      // A plain heartbeat: keep the socket's member, but re-check it (the token may have expired).
      if (client.credentials) await this.verify(client);
      return;
    }
    if (credentials === undefined) return;
    const since = this.now() - 60_000;
    client.authTimes = client.authTimes.filter((t) => t > since);
    if (client.authTimes.length >= MAX_AUTH_PER_MINUTE) {
      client.socket.close(1008, 'too many auth attempts');
      return;
    }
    client.authTimes.push(this.now());
    client.credentials = credentials;
    await this.verify(client, true);
  }

  /** Resolves the socket's credentials to a member through the engine; refused credentials are dropped. */
  private async verify(client: Client, announce = false): Promise<void> {
    const before = client.memberId;
    const credentials = client.credentials;
    let memberId: string | null = null;
    if (credentials) {
      const response = await callEngine(this.engine, '/api/user/getuser', {
        authorization: credentials.token,
        userid: credentials.userId,
      });
      const data = response.body.data;
      if (response.body.code === 0 && data) memberId = String(data.id);
    }
    // A newer auth message may have replaced the credentials while this check ran.
    if (client.credentials !== credentials) return;
    client.memberId = memberId;
    if (!memberId) client.credentials = null;
    if (announce || before !== memberId) this.send(client, { type: 'bound', data: { memberId } });
  }

  /** After a call that may end sessions, every authenticated socket is checked again. */
  sessionsMayHaveChanged(path: string, response: EngineResponse): void {
    if (!SESSION_CHANGING.has(path) || response.body.code !== 0) return;
    for (const client of this.clients) if (client.credentials) void this.verify(client);
  }

  private send(client: Client, message: FeedMessage, text = JSON.stringify(message)): void {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(text);
  }

  private deliver(message: EngineFeedMessage): void {
    const member = memberOf(message);
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch {
      return;
    }
    for (const client of this.clients) {
      if (!client.bound) continue;
      if (client.socket.bufferedAmount > DEAD_CLIENT_BYTES) {
        client.socket.terminate();
        continue;
      }
      if (member !== null) {
        if (client.memberId === member) this.send(client, message, text);
      } else if (client.socket.bufferedAmount < SLOW_CLIENT_BYTES) {
        this.send(client, message, text);
      }
    }
  }

  private tick(): void {
    const now = this.now();
    const ping = JSON.stringify({ type: 'ping', data: Math.floor(now / 1000) });
    for (const client of this.clients) {
      if (now - client.lastSeen > IDLE_LIMIT_MS) client.socket.terminate();
      else if (client.bound) this.send(client, { type: 'ping', data: null }, ping);
    }
  }

  get size(): number {
    return this.clients.size;
  }

  /** Open sockets, authenticated as a member or not (the metrics' strata_ws_connections). */
  stats(): { member: number; anonymous: number } {
    let member = 0;
    for (const client of this.clients) if (client.memberId !== null) member++;
    return { member, anonymous: this.clients.size - member };
  }

  /**
   * The server is stopping: every socket is closed with 1012 (service restart), which tells the app to
   * reconnect (to another instance behind the balancer, or to this one once it is back). A socket that has not
   * completed its closing handshake within `graceMs` is cut.
   */
  async close(graceMs = 1_000): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe();
    const closing = [...this.clients].map(
      ({ socket }) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === socket.CLOSED) return resolve();
          socket.once('close', () => resolve());
          socket.close(1012, 'service restart');
        }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(closing),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    for (const client of this.clients) client.socket.terminate();
    this.clients.clear();
  }
}
