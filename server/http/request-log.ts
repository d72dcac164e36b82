/**
 * One log line per answered request, with its request id (reqId), method, URL, status and time: at info
 * for a refusal or failure (an HTTP status >= 400, or an envelope code other than 0) and for an answer
 * slower than SLOW_REQUEST_MS; every other request at debug. Bodies and headers are never logged (Fastify's
 * own two lines per request are off: docs/SERVER.md "Load figures").
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refusedReplies } from './envelope';

/** An answer slower than this is logged at info however it went. */
export const SLOW_REQUEST_MS = 1_000;

/** Log fields that may carry a secret; pino writes [Redacted] instead. */
export const REDACT = [
  'req.headers.authorization',
  'req.headers.userid',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  '*.password',
  '*.repassword',
  '*.oldPassword',
  '*.key',
  '*.rekey',
  '*.oldKey',
  '*.token',
  '*.answer',
];

/** pino's level numbers (a logger writes the levels at or above its own: info 30, debug 20). */
const LOG_LEVELS: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

export const requestLog = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', (request, reply, done) => {
      const log = request.log;
      const notable =
        reply.statusCode >= 400 || refusedReplies.has(reply) || reply.elapsedTime > SLOW_REQUEST_MS;
      if ((LOG_LEVELS[log.level] ?? 0) <= (notable ? 30 : 20)) {
        const entry = {
          req: { method: request.method, url: request.url, remoteAddress: request.ip },
          res: { statusCode: reply.statusCode },
          responseTime: reply.elapsedTime,
        };
        if (notable) log.info(entry, 'request completed');
        else log.debug(entry, 'request completed');
      }
      done();
    });
  },
  { name: 'strata-request-log' },
);
