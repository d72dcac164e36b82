/**
 * The feed at /ws (@fastify/websocket; the hub is server/ws.ts). An upgrade anywhere else is refused
 * before the handshake (the plugin would accept it, then close).
 */
import websocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import fp from 'fastify-plugin';
import type { SocketHub } from '../ws';

/** The largest frame a client may send (subscriptions and binds are a few hundred bytes). */
export const MAX_FRAME_BYTES = 16 * 1024;
/** At most one warn line per this period for frames refused by the protocol, however many arrive. */
const REFUSAL_LOG_MS = 60_000;

/**
 * A frame ws refuses (over MAX_FRAME_BYTES, bad UTF-8, a reserved opcode...) is the client's doing: ws
 * has already closed that socket with the matching code (1009 for a frame too large, 1002/1007 for
 * protocol and data errors), so it is a warn, once a period with the count since the last line, never an
 * error with a stack per frame (anybody could fill the error log). Any other error stays an error.
 */
export function socketErrorLog(log: FastifyBaseLogger, now: () => number = Date.now) {
  let lastLine = -Infinity;
  let unlogged = 0;
  return (error: Error & { code?: unknown }, socket: WebSocket): void => {
    if (typeof error.code !== 'string' || !error.code.startsWith('WS_ERR_')) {
      log.error({ err: error }, 'WebSocket error');
      socket.terminate();
      return;
    }
    unlogged++;
    if (now() - lastLine < REFUSAL_LOG_MS) return;
    log.warn(
      { code: error.code, reason: error.message, refused: unlogged, periodMs: REFUSAL_LOG_MS },
      'WebSocket frames refused (sockets closed); at most one line a minute',
    );
    lastLine = now();
    unlogged = 0;
  };
}

export const feedSocket = fp<{ hub: SocketHub }>(
  async (app: FastifyInstance, { hub }) => {
    const logError = socketErrorLog(app.log);
    await app.register(websocket, {
      options: { maxPayload: MAX_FRAME_BYTES },
      errorHandler: (error, socket) => logError(error, socket),
    });
    app.addHook('onRequest', (request, reply, done) => {
      if (request.ws && request.url.split('?')[0] !== '/ws') {
        void reply.hijack();
        request.raw.socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      done();
    });
    app.get('/ws', { websocket: true }, (socket, request) => hub.accept(socket, request.ip));
  },
  { name: 'strata-feed-socket' },
);
