import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import type { FeedMessage } from '../../engine/index';
import { machineCoverage } from '../../tests/app/machine-coverage';
import {
  bindFrame,
  HEARTBEAT_MS,
  MAX_RECONNECT_MS,
  reconnectDelay,
  RECONNECT_MS,
  socketMachine,
} from './socket';
import {
  feedSocketFactory,
  socketConnection,
  type SocketFactory,
  type SocketHandlers,
} from './socket-connection';

interface FakeSocket {
  url: string;
  sent: string[];
  closed: boolean;
  handlers: SocketHandlers;
}

/** A WebSocket stand-in whose events the test fires by hand. */
function fakeSockets() {
  const sockets: FakeSocket[] = [];
  const factory: SocketFactory = (url, handlers) => {
    const socket: FakeSocket = { url, sent: [], closed: false, handlers };
    sockets.push(socket);
    return {
      send: (text) => socket.sent.push(text),
      close: () => {
        socket.closed = true;
        // A real socket reports its own close later; the machine must not take it for the new one's.
        queueMicrotask(() => handlers.close());
      },
    };
  };
  const open = () => sockets.filter((s) => !s.closed);
  const last = (): FakeSocket => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket yet');
    return socket;
  };
  return { sockets, factory, open, last };
}

/** The browser's online/offline events, fired by hand (the machine's `network` actor). */
const quietNetwork = fromCallback(() => () => undefined);

function start(online = true) {
  const fake = fakeSockets();
  const clock = new SimulatedClock();
  const machine = socketMachine.provide({
    actors: { connection: socketConnection(fake.factory), network: quietNetwork },
  });
  const actor = createActor(machine, {
    clock,
    input: { url: 'wss://example.test/ws', heartbeat: 'hb-1', online },
  });
  const messages: FeedMessage[] = [];
  actor.on('message', (event) => messages.push(event.message));
  actor.start();
  return { actor, clock, fake, messages };
}

const BIND = bindFrame('hb-1');

describe('socket machine', () => {
  it('connects at start and on open sends bind with the heartbeat text, again every 58 s', () => {
    const { actor, clock, fake } = start();
    expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
    expect(fake.sockets).toHaveLength(1);
    expect(fake.last().url).toBe('wss://example.test/ws');
    fake.last().handlers.open();
    expect(actor.getSnapshot().value).toEqual({ connection: 'open' });
    expect(fake.last().sent).toEqual([BIND]);
    clock.increment(HEARTBEAT_MS - 1);
    expect(fake.last().sent).toHaveLength(1);
    clock.increment(1);
    clock.increment(HEARTBEAT_MS);
    expect(fake.last().sent).toEqual([BIND, BIND, BIND]);
    expect(JSON.parse(BIND)).toEqual({ type: 'bind', data: 'hb-1' });
  });

  it('ignores ping and forwards every other message, parsed', () => {
    const { fake, messages } = start();
    fake.last().handlers.open();
    fake.last().handlers.message(JSON.stringify({ type: 'ping', data: 1 }));
    fake.last().handlers.message(JSON.stringify({ type: 'Curr', data: { BTCUSDT: { close: '1' } } }));
    fake.last().handlers.message('not json');
    fake.last().handlers.message({ type: 'balance', data: null });
    expect(messages).toEqual([
      { type: 'Curr', data: { BTCUSDT: { close: '1' } } },
      { type: 'balance', data: null },
    ]);
  });

  it.each(['error', 'close'] as const)(
    'on %s closes the socket and reconnects after 5 s, not before',
    (kind) => {
      const { actor, clock, fake } = start();
      fake.last().handlers.open();
      const first = fake.last();
      first.handlers[kind]();
      expect(actor.getSnapshot().value).toBe('waiting');
      expect(first.closed).toBe(true);
      clock.increment(RECONNECT_MS - 1);
      expect(fake.sockets).toHaveLength(1);
      clock.increment(1);
      expect(fake.sockets).toHaveLength(2);
      expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
      expect(actor.getSnapshot().context.connections).toBe(2);
    },
  );

  it('takes no event from an old socket for the new one', async () => {
    const { actor, clock, fake } = start();
    const first = fake.last();
    first.handlers.error();
    clock.increment(RECONNECT_MS);
    await Promise.resolve();
    // The first socket's late close and open must not move the second connection.
    first.handlers.close();
    first.handlers.open();
    expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
    expect(fake.open()).toHaveLength(1);
  });

  it('stops the heartbeat when the connection drops', () => {
    const { clock, fake } = start();
    fake.last().handlers.open();
    fake.last().handlers.close();
    clock.increment(HEARTBEAT_MS);
    expect(fake.sockets[0]?.sent).toEqual([BIND]);
  });

  it('backs off while attempts keep failing: 5 s, 10 s, 20 s, 40 s, then 60 s; an open resets it', () => {
    const { actor, clock, fake } = start();
    const waits: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      fake.last().handlers.error();
      const before = fake.sockets.length;
      let waited = 0;
      while (fake.sockets.length === before) {
        clock.increment(1_000);
        waited += 1_000;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
    fake.last().handlers.open();
    expect(actor.getSnapshot().context.failures).toBe(0);
    fake.last().handlers.close();
    clock.increment(RECONNECT_MS);
    expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
  });

  it('offline: closes the socket, attempts nothing however long it lasts, and reconnects at once when online', async () => {
    const { actor, clock, fake } = start();
    fake.last().handlers.open();
    actor.send({ type: 'OFFLINE' });
    expect(actor.getSnapshot().value).toBe('offline');
    await Promise.resolve();
    expect(fake.open()).toHaveLength(0);
    // An hour offline: no attempt (each would be a browser error in the console), no heartbeat.
    clock.increment(3_600_000);
    expect(fake.sockets).toHaveLength(1);
    actor.send({ type: 'ONLINE' });
    expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
    expect(fake.sockets).toHaveLength(2);
    fake.last().handlers.open();
    expect(fake.last().sent).toEqual([BIND]);
  });

  it('offline while waiting to reconnect cancels the attempt; online while waiting connects without waiting', () => {
    const { actor, clock, fake } = start();
    fake.last().handlers.error();
    fake.last().handlers.error();
    actor.send({ type: 'OFFLINE' });
    clock.increment(MAX_RECONNECT_MS * 10);
    expect(fake.sockets).toHaveLength(1);
    actor.send({ type: 'ONLINE' });
    expect(fake.sockets).toHaveLength(2);
    // Back online counts as a fresh start: a failure now waits 5 s, not the back-off reached before.
    fake.last().handlers.error();
    clock.increment(RECONNECT_MS);
    expect(fake.sockets).toHaveLength(3);
    fake.last().handlers.error();
    actor.send({ type: 'ONLINE' });
    expect(fake.sockets).toHaveLength(4);
  });

  it('started offline, opens no socket until the browser says it is online', () => {
    const { actor, clock, fake } = start(false);
    expect(actor.getSnapshot().value).toBe('offline');
    clock.increment(600_000);
    expect(fake.sockets).toHaveLength(0);
    actor.send({ type: 'ONLINE' });
    expect(fake.sockets).toHaveLength(1);
    expect(actor.getSnapshot().context.online).toBe(true);
  });

  it('never has two connections open, whatever the sequence of socket events and time (property)', async () => {
    const step = fc.oneof(
      fc.constantFrom('open', 'error', 'close', 'ping', 'message', 'online', 'offline'),
      fc.integer({ min: 1, max: 70_000 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const { actor, clock, fake, messages } = start();
        for (const s of steps) {
          if (typeof s === 'number') clock.increment(s);
          else if (s === 'ping') fake.last().handlers.message({ type: 'ping', data: null });
          else if (s === 'message') fake.last().handlers.message({ type: 'Kline', data: [] });
          else if (s === 'online') actor.send({ type: 'ONLINE' });
          else if (s === 'offline') actor.send({ type: 'OFFLINE' });
          else fake.last().handlers[s]();
          await Promise.resolve();
          const value = actor.getSnapshot().value;
          expect(fake.open().length).toBeLessThanOrEqual(1);
          // A live socket exists exactly while the machine is in `connection` (never while offline).
          expect(fake.open().length).toBe(value === 'waiting' || value === 'offline' ? 0 : 1);
          const { failures } = actor.getSnapshot().context;
          expect(reconnectDelay(failures)).toBeLessThanOrEqual(MAX_RECONNECT_MS);
          expect(messages.every((m) => m.type !== 'ping')).toBe(true);
        }
        actor.stop();
        expect(fake.open()).toHaveLength(0);
      }),
      { numRuns: 200 },
    );
  });

  it('generated paths reach every state and transition, and replay on a live actor', () => {
    const coverage = machineCoverage(socketMachine, {
      input: { url: 'u', heartbeat: 'h' },
      events: () => [
        { type: 'OPENED' },
        { type: 'MESSAGES', messages: [{ type: 'ping', data: null }] },
        { type: 'MESSAGES', messages: [{ type: 'Curr', data: {} }] },
        { type: 'ERROR' },
        { type: 'CLOSED' },
        { type: 'ONLINE' },
        { type: 'OFFLINE' },
      ],
    });
    expect(coverage.unvisitedStates).toEqual([]);
    expect(coverage.unvisitedTransitions).toEqual([]);
    expect(coverage.paths.length).toBeGreaterThanOrEqual(coverage.transitions.length);
    for (const path of coverage.paths) {
      const { actor, clock, fake } = start();
      for (const event of path.events) {
        if (event.type.startsWith('xstate.after.heartbeat')) clock.increment(HEARTBEAT_MS);
        else if (event.type.startsWith('xstate.after.reconnect'))
          clock.increment(reconnectDelay(actor.getSnapshot().context.failures));
        else if (event.type === 'OPENED') fake.last().handlers.open();
        else if (event.type === 'ERROR') fake.last().handlers.error();
        else if (event.type === 'CLOSED') fake.last().handlers.close();
        else if (event.type === 'ONLINE' || event.type === 'OFFLINE') actor.send({ type: event.type });
      }
      expect(JSON.stringify(actor.getSnapshot().value)).toBe(path.target);
    }
  });

  it('round-trips a persisted snapshot', () => {
    const { actor, fake } = start();
    fake.last().handlers.open();
    const persisted = actor.getPersistedSnapshot();
    const restored = createActor(
      socketMachine.provide({
        actors: { connection: socketConnection(fakeSockets().factory), network: quietNetwork },
      }),
      { snapshot: JSON.parse(JSON.stringify(persisted)), input: { url: 'u', heartbeat: 'h' } },
    ).start();
    expect(restored.getSnapshot().value).toEqual({ connection: 'open' });
    expect(restored.getSnapshot().context).toEqual(actor.getSnapshot().context);
    expect(restored.getPersistedSnapshot()).toEqual(persisted);
  });

  it('in demo mode reads the worker feed through the same shape', async () => {
    const listeners = new Set<(m: readonly FeedMessage[]) => void>();
    const factory = feedSocketFactory((listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    });
    const actor = createActor(socketMachine.provide({ actors: { connection: socketConnection(factory) } }), {
      input: { url: 'demo', heartbeat: 'h' },
    });
    const messages: FeedMessage[] = [];
    actor.on('message', (e) => messages.push(e.message));
    actor.start();
    await Promise.resolve();
    expect(actor.getSnapshot().value).toEqual({ connection: 'open' });
    listeners.forEach((l) => l([{ type: 'ping', data: null }]));
    listeners.forEach((l) => l([{ type: 'deposit', data: { memberId: 'm1', id: '1', status: 'success' } }]));
    expect(messages).toEqual([{ type: 'deposit', data: { memberId: 'm1', id: '1', status: 'success' } }]);
    // A batch (a market tick) is one transition, and every message in it still reaches listeners in order.
    let transitions = 0;
    actor.subscribe(() => (transitions += 1));
    listeners.forEach((l) =>
      l([
        { type: 'balance', data: { memberId: 'm1' } },
        { type: 'ping', data: null },
        { type: 'balance', data: { memberId: 'm2' } },
      ]),
    );
    expect(transitions).toBe(1);
    expect(messages.slice(1)).toEqual([
      { type: 'balance', data: { memberId: 'm1' } },
      { type: 'balance', data: { memberId: 'm2' } },
    ]);
    actor.stop();
    expect(listeners.size).toBe(0);
  });
});
