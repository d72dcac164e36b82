/**
 * The real-time socket's lifecycle (SPEC.md §4): connect at start; on open send `bind` with the heartbeat
 * text and repeat it every 58 s; on error or close wait 5 s and reconnect, backing off (10 s, 20 s... at most
 * 60 s) while attempts keep failing; never two connections at once; `ping` is ignored and every other message
 * is emitted to listeners. While the browser says it is offline the machine rests in `offline` and connects
 * at once when it is online again (docs/DECISIONS.md "Machines and the demo worker"). Its interface is
 * documented on `socketMachine` below.
 */
import { assign, enqueueActions, fromCallback, sendTo, setup } from 'xstate';
import type { FeedMessage } from '../../engine/index';
import { socketConnection, webSocketFactory, type ConnectionEvent } from './socket-connection';

export const HEARTBEAT_MS = 58_000;
export const RECONNECT_MS = 5_000;
/** The longest wait between two attempts while they keep failing (the back-off's ceiling). */
export const MAX_RECONNECT_MS = 60_000;

export interface SocketInput {
  url: string;
  heartbeat: string;
  /** navigator.onLine at start (default true): offline, the machine starts in `offline`. */
  online?: boolean;
}

export interface SocketContext {
  url: string;
  heartbeat: string;
  online: boolean;
  connections: number;
  failures: number;
}

export type NetworkEvent = { type: 'ONLINE' } | { type: 'OFFLINE' };
export type SocketEvent = ConnectionEvent | NetworkEvent;

/** The wait before the next attempt after `failures` failed in a row: 5 s, 10 s, 20 s, 40 s, then 60 s. */
export function reconnectDelay(failures: number): number {
  const doublings = Math.max(0, Math.min(failures - 1, 10));
  return Math.min(RECONNECT_MS * 2 ** doublings, MAX_RECONNECT_MS);
}

/** The browser's online/offline events as machine events (nothing outside a browser). */
export const browserNetwork = fromCallback(({ sendBack }: { sendBack: (event: NetworkEvent) => void }) => {
  if (typeof window === 'undefined') return () => undefined;
  const online = () => sendBack({ type: 'ONLINE' });
  const offline = () => sendBack({ type: 'OFFLINE' });
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  return () => {
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
});

export type SocketEmitted = { type: 'message'; message: FeedMessage };

export function bindFrame(heartbeat: string): string {
  return JSON.stringify({ type: 'bind', data: heartbeat });
}

/**
 * Interface
 * - input: `{ url, heartbeat, online? }` (heartbeat: the text bind carries; online: the browser's
 *   navigator.onLine at start, default true).
 * - context: `{ url, heartbeat, connections, failures }` (connections: how many have been opened, for
 *   diagnostics; failures: attempts failed in a row since the last open, which set the back-off).
 * - events from the connection actor: OPENED, MESSAGES(messages: one frame, or a batch from the demo worker),
 *   ERROR, CLOSED (see socket-connection.ts); from the network actor: ONLINE, OFFLINE.
 * - emitted: `{ type: 'message', message }` for each non-ping message: `actor.on('message', ...)`.
 * - actors: `connection` (default: a browser WebSocket). Demo mode provides
 *   `socketConnection(demoSocketFactory)` (the worker's feed); tests provide a fake factory. `network`
 *   (default: the window's online/offline events; none outside a browser).
 * States: connection.connecting, connection.open, waiting, offline. The connection actor lives exactly as
 * long as the `connection` state, so a new connection can only start after the old one was stopped and closed.
 */
export const socketMachine = setup({
  types: {
    input: {} as SocketInput,
    context: {} as SocketContext,
    events: {} as SocketEvent,
    emitted: {} as SocketEmitted,
  },
  actors: { connection: socketConnection(webSocketFactory), network: browserNetwork },
  delays: {
    heartbeat: HEARTBEAT_MS,
    reconnect: ({ context }) => reconnectDelay(context.failures),
  },
  guards: { offline: ({ context }) => !context.online },

  actions: {
    countConnection: assign({ connections: ({ context }) => context.connections + 1 }),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
    resetFailures: assign({ failures: 0 }),
    wentOffline: assign({ online: false }),
    cameOnline: assign({ online: true, failures: 0 }),
    sendBind: sendTo('connection', ({ context }) => ({
      type: 'SEND' as const,
      text: bindFrame(context.heartbeat),
    })),
    forward: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'MESSAGES') throw new Error(`forward: unexpected ${event.type}`);
      for (const message of event.messages)
        if (message.type !== 'ping') enqueue.emit({ type: 'message' as const, message });
    }),
  },
}).createMachine({
  id: 'socket',
  context: ({ input }) => ({
    url: input.url,
    heartbeat: input.heartbeat,
    online: input.online ?? true,
    connections: 0,
    failures: 0,
  }),
  invoke: { id: 'network', src: 'network' },
  initial: 'connection',
  on: {
    ONLINE: { actions: assign({ online: true }) },
    OFFLINE: { actions: assign({ online: false }) },
  },
  states: {
    connection: {
      // Started offline (navigator.onLine false): straight on to `offline`, in the same step, so the
      // connection actor is never started and no socket is attempted.
      always: { guard: 'offline', target: 'offline' },
      entry: 'countConnection',
      invoke: { id: 'connection', src: 'connection', input: ({ context }) => ({ url: context.url }) },
      on: {
        ERROR: { target: 'waiting', actions: 'countFailure' },
        CLOSED: { target: 'waiting', actions: 'countFailure' },
        OFFLINE: { target: 'offline', actions: 'wentOffline' },
      },
      initial: 'connecting',
      states: {
        connecting: { on: { OPENED: { target: 'open', actions: 'resetFailures' } } },
        open: {
          entry: 'sendBind',
          after: { heartbeat: { target: 'open', reenter: true } },
          on: { MESSAGES: { actions: 'forward' } },
        },
      },
    },
    waiting: {
      after: { reconnect: 'connection' },
      on: {
        OFFLINE: { target: 'offline', actions: 'wentOffline' },
        ONLINE: { target: 'connection', actions: 'cameOnline' },
      },
    },
    // No attempt while the device has no network; the browser's `online` event reconnects at once.
    offline: { on: { ONLINE: { target: 'connection', actions: 'cameOnline' } } },
  },
});
