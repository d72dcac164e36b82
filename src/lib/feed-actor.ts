/**
 * The page's one real-time feed, shared by every market screen: a single socket machine
 * (src/machines/socket.ts) started on first use and kept for the page's life, as SPEC.md §4 keeps one
 * socket. Demo mode reads the worker's feed (demoFeed below); live mode a WebSocket on /ws.
 * Screens use it through ./feed.ts, which loads this module (and XState) only once the page is idle.
 */
import { createActor, type ActorRefFrom } from 'xstate';
import { apiBase, isDemoMode } from '../api/config';
import { socketMachine } from '../machines/socket';
import { createDemoWorkerTransport } from '../api/transport-worker';
import { socketConnection, webSocketFactory, type SocketFactory } from '../machines/socket-connection';
import { userStore } from '../state/user-store';

/** The text `bind` carries (API.md: the server only needs it to keep the connection warm). */
const HEARTBEAT_TEXT = 'strata';

type FeedActor = ActorRefFrom<typeof socketMachine>;

/**
 * Demo mode's feed as a socket (as demoSocketFactory), except that a demo engine that cannot start (no
 * Worker: old browsers, unit tests) reports a socket error, so the machine waits and retries instead of
 * throwing from a timer callback.
 */
const demoFeed: SocketFactory = (_url, handlers) => {
  let closed = false;
  let stop: (() => void) | undefined;
  // A task of its own (not a microtask): on a slow phone, starting the machine and then the worker's
  // transport and the machine's open transition in one task made one long task of them (total blocking time).
  setTimeout(() => {
    if (closed) return;
    try {
      stop = createDemoWorkerTransport().subscribeBatches((messages) => handlers.messages(messages));
    } catch {
      handlers.error();
      return;
    }
    handlers.open();
  }, 0);
  return {
    send: () => undefined,
    close: () => {
      closed = true;
      stop?.();
    },
  };
};

/** The member's credentials for the live socket, or null when logged out (docs/SERVER.md "Socket auth"). */
function authFrame(): string {
  const user = userStore.get();
  return JSON.stringify({ type: 'auth', data: user ? { token: user.token, userId: String(user.id) } : null });
}

/**
 * Live mode's socket: a WebSocket that, once bound, tells the server who the member is, and tells it again on
 * every login or logout, so account events (balance, order, withdrawal...) reach this member only. Market
 * messages need no auth. The bind itself carries only the heartbeat text, as API.md says.
 */
export const liveFeed: SocketFactory = (url, handlers) => {
  let bound = false;
  let stopWatching: (() => void) | undefined;
  const connection = webSocketFactory(url, {
    ...handlers,
    close: () => {
      stopWatching?.();
      handlers.close();
    },
    error: () => {
      stopWatching?.();
      handlers.error();
    },
  });
  return {
    send(text: string) {
      connection.send(text);
      if (bound) return;
      bound = true;
      connection.send(authFrame());
      stopWatching = userStore.subscribe(() => connection.send(authFrame()));
    },
    close() {
      stopWatching?.();
      connection.close();
    },
  };
};

let actor: FeedActor | null = null;

function feedUrl(): string {
  return `${apiBase().replace(/^http/, 'ws')}/ws`;
}

export function feedActor(): FeedActor {
  if (actor) return actor;
  const machine = socketMachine.provide({
    actors: { connection: socketConnection(isDemoMode() ? demoFeed : liveFeed) },
  });
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  actor = createActor(machine, { input: { url: feedUrl(), heartbeat: HEARTBEAT_TEXT, online } });
  actor.start();
  return actor;
}

/** True while the feed is connected; false while it waits to reconnect (a stale-prices cue). */
export function isFeedLive(): boolean {
  return feedActor().getSnapshot().matches({ connection: 'open' });
}

/** True while the machine rests because the browser says it is offline (no connection is attempted). */
export function isFeedOffline(): boolean {
  return feedActor().getSnapshot().matches('offline');
}
