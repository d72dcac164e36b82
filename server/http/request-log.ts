/**
 * One log line per answered request (reqId, method, URL, status, time): at info for a refusal or failure
 * (status >= 400 or an envelope code other than 0) or an answer slower than SLOW_REQUEST_MS, else at debug;
 * never bodies or headers (Fastify's own two lines are off: docs/SERVER.md "Load figures"). Every other line
 * written while a request is served carries its id too: it is kept in an AsyncLocalStorage, and
 * `requestIdMixin` (pino's `mixin`) adds it to any line that does not bind it. docs/OPERATIONS.md "Request ids".
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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

/** The id of the request being served, in its asynchronous context. */
const currentRequest = new AsyncLocalStorage<string>();

/** pino's `mixin`: `{ reqId }` of the request being served, unless the line's logger already binds it. */
export function requestIdMixin(
  _fields: object,
  _level: number,
  logger: { bindings(): Record<string, unknown> },
): { reqId?: string } {
  const reqId = currentRequest.getStore();
  if (reqId === undefined || logger.bindings()['reqId'] !== undefined) return {};
  return { reqId };
}

export const requestLog = fp(
  async (app: FastifyInstance) => {
    // Hooks and the handler after this one run inside done's call, so within the request's context.
    app.addHook('onRequest', (request, _reply, done) => currentRequest.run(request.id, done));
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
