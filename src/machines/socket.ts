/**
 * The real-time socket's lifecycle (SPEC.md §4): connect at start; on open send `bind` with the heartbeat
 * text and repeat it every 58 s; on error or close wait 5 s and reconnect; never two connections at once;
 * `ping` is ignored and every other message is emitted to listeners.
 *
 * Interface
 * - input: `{ url, heartbeat }` (heartbeat: the text bind carries).
 * - context: `{ url, heartbeat, connections }` (connections: how many have been opened, for diagnostics).
 * - events from the connection actor: OPENED, MESSAGES(messages: one frame, or a batch from the demo worker),
 *   ERROR, CLOSED (see socket-connection.ts).
 * - emitted: `{ type: 'message', message }` for each non-ping message: `actor.on('message', ...)`.
 * - actors: `connection` (default: a browser WebSocket). Demo mode provides
 *   `socketConnection(demoSocketFactory)` (the worker's feed); tests provide a fake factory.
 * States: connection.connecting, connection.open, waiting. The connection actor lives exactly as long as
 * the `connection` state, so a new connection can only start after the old one was stopped and closed.
 */
import { assign, enqueueActions, sendTo, setup } from 'xstate';
import type { FeedMessage } from '../../engine/index';
import { socketConnection, webSocketFactory, type ConnectionEvent } from './socket-connection';

export const HEARTBEAT_MS = 58_000;
export const RECONNECT_MS = 5_000;

export interface SocketInput {
  url: string;
  heartbeat: string;
}

export interface SocketContext extends SocketInput {
  connections: number;
}

export type SocketEvent = ConnectionEvent;

export type SocketEmitted = { type: 'message'; message: FeedMessage };

export function bindFrame(heartbeat: string): string {
  return JSON.stringify({ type: 'bind', data: heartbeat });
}

export const socketMachine = setup({
  types: {
    input: {} as SocketInput,
    context: {} as SocketContext,
    events: {} as SocketEvent,
    emitted: {} as SocketEmitted,
  },
  actors: { connection: socketConnection(webSocketFactory) },
  delays: { heartbeat: HEARTBEAT_MS, reconnect: RECONNECT_MS },

  actions: {
    countConnection: assign({ connections: ({ context }) => context.connections + 1 }),
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
  context: ({ input }) => ({ url: input.url, heartbeat: input.heartbeat, connections: 0 }),
  initial: 'connection',
  states: {
    connection: {
      entry: 'countConnection',
      invoke: { id: 'connection', src: 'connection', input: ({ context }) => ({ url: context.url }) },
      on: { ERROR: 'waiting', CLOSED: 'waiting' },
      initial: 'connecting',
      states: {
        connecting: { on: { OPENED: 'open' } },
        open: {
          entry: 'sendBind',
          after: { heartbeat: { target: 'open', reenter: true } },
          on: { MESSAGES: { actions: 'forward' } },
        },
      },
    },
    waiting: { after: { reconnect: 'connection' } },
  },
});
