/**
 * The one live connection the socket machine owns, as a callback actor: it exists only while the machine is
 * in `connection`, so leaving that state (error, close) always closes it before a new one can start. The
 * transport underneath is a factory: a real WebSocket in live mode, the worker's feed in demo mode, a fake in
 * tests.
 */
import { fromCallback } from 'xstate';
import type { FeedMessage } from '../../engine/index';
import { createDemoWorkerTransport } from '../api/transport-worker';

export interface SocketHandlers {
  open(): void;
  /** A raw frame: a JSON string from a WebSocket, or an already parsed message from the demo feed. */
  message(data: unknown): void;
  /**
   * Several raw frames at once (the demo worker's feed crosses in batches): one event for the machine, so a
   * market tick of dozens of messages costs the page one transition instead of one each.
   */
  messages(data: readonly unknown[]): void;
  error(): void;
  close(): void;
}

export interface SocketConnection {
  send(text: string): void;
  close(): void;
}

export type SocketFactory = (url: string, handlers: SocketHandlers) => SocketConnection;

/** What the connection reports to the machine. */
export type ConnectionEvent =
  { type: 'OPENED' } | { type: 'MESSAGES'; messages: FeedMessage[] } | { type: 'ERROR' } | { type: 'CLOSED' };

/** What the machine tells the connection. */
export interface SendCommand {
  type: 'SEND';
  text: string;
}

/** Messages are `{ type, data }` (API.md "Real-time feed"); anything else is dropped, not forwarded. */
export function parseFeedMessage(data: unknown): FeedMessage | null {
  let value = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, data: payload } = value as { type?: unknown; data?: unknown };
  // Parsed JSON from the server: the type is checked here, each payload by the screen that uses it.
  return typeof type === 'string' ? ({ type, data: payload } as FeedMessage) : null;
}

export function socketConnection(factory: SocketFactory) {
  return fromCallback<SendCommand, { url: string }>(({ input, sendBack, receive }) => {
    // Events a socket fires after we closed it (its own close event, a late message) belong to no one.
    let live = true;
    const report = (event: ConnectionEvent): void => {
      if (live) sendBack(event);
    };
    const messages = (frames: readonly unknown[]): void => {
      const parsed = frames.map(parseFeedMessage).filter((m): m is FeedMessage => m !== null);
      if (parsed.length) report({ type: 'MESSAGES', messages: parsed });
    };
    const connection = factory(input.url, {
      open: () => report({ type: 'OPENED' }),
      message: (data) => messages([data]),
      messages,
      error: () => report({ type: 'ERROR' }),
      close: () => report({ type: 'CLOSED' }),
    });
    receive((command) => connection.send(command.text));
    return () => {
      live = false;
      connection.close();
    };
  });
}

/** Live mode: a browser WebSocket. */
export const webSocketFactory: SocketFactory = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.onopen = () => handlers.open();
  socket.onmessage = (event: MessageEvent<unknown>) => handlers.message(event.data);
  socket.onerror = () => handlers.error();
  socket.onclose = () => handlers.close();
  return {
    send: (text) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
    },
    close: () => socket.close(),
  };
};

/**
 * Demo mode: the worker transport's feed behind the same shape. It "opens" on the next microtask, as a
 * socket never opens synchronously; bind frames have no one to read them and are dropped.
 */
export function feedSocketFactory(
  subscribe: (listener: (messages: readonly FeedMessage[]) => void) => () => void,
): SocketFactory {
  return (_url, handlers) => {
    let closed = false;
    let unsubscribe: (() => void) | undefined;
    queueMicrotask(() => {
      if (closed) return;
      unsubscribe = subscribe((messages) => handlers.messages(messages));
      handlers.open();
    });
    return {
      send: () => undefined,
      close: () => {
        closed = true;
        unsubscribe?.();
      },
    };
  };
}

/** Demo mode's socket: the feed of the page's one demo worker (see createDemoWorkerTransport). */
export const demoSocketFactory: SocketFactory = (url, handlers) =>
  feedSocketFactory((listener) => createDemoWorkerTransport().subscribeBatches(listener))(url, handlers);
