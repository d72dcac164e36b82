/**
 * The feed at /ws (@fastify/websocket; the hub is server/ws.ts). An upgrade anywhere else is refused
 * before the handshake (the plugin would accept it, then close).
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SocketHub } from '../ws';

export const feedSocket = fp<{ hub: SocketHub }>(
  async (app: FastifyInstance, { hub }) => {
    await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
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
