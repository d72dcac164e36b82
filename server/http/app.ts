/**
 * The member server on Fastify 5, one plugin per concern (docs/SERVER.md "HTTP"): envelope errors,
 * request logs, JSON bodies, security headers, CORS, rate limits, uploads, the /ws feed, the built app,
 * and the engine's routes. What only a network server needs comes from Fastify's maintained plugins; every
 * refusal answers a catalogue code, never a 500 or a stack trace.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { Engine, EngineResponse } from '../../engine/index';
import type { ServerConfig } from '../config';
import type { ServerMetrics } from '../metrics';
import type { UploadStore } from '../upload-store';
import type { SocketHub } from '../ws';
import { corsForOrigins } from './cors';
import { engineRoutes } from './engine-routes';
import { envelopeErrors, errorEnvelope, sendEnvelope } from './envelope';
import { jsonBodies } from './json-body';
import { probes, type Readiness } from './probes';
import { rateLimits } from './rate-limits';
import { requestLog } from './request-log';
import { requestMetrics } from './request-metrics';
import { securityHeaders } from './security';
import { feedSocket } from './socket';
import { appPage } from './app-page';
import { staticApp } from './static-app';
import { uploads } from './uploads';

export interface HttpDeps {
  engine: Engine;
  config: ServerConfig;
  hub: SocketHub;
  /** Rate-limit counters shared by every instance (REDIS_URL); memory when absent. */
  redis?: Redis;
  /** pino options or false (tests: silent); main.ts passes the process logger's settings. */
  logger?: FastifyServerOptions['logger'];
  /** Told of every answered call (the socket hub re-checks sessions after logout or a password change). */
  onAnswered?: (path: string, headers: Record<string, string>, response: EngineResponse) => void;
  /** Answers 503 to engine calls while the storage is known to be unreachable. */
  unavailable?: () => string | null;
  /** Counts each answered request (server/metrics.ts). */
  metrics?: ServerMetrics;
  /** What /readyz answers; once draining, every answer closes its connection. */
  readiness?: Readiness;
  /** Where uploads' bytes go on SQL storage (streamed, bounded per IP and overall); absent: memory. */
  uploadStore?: UploadStore;
  /** The server's clock (the engine's): the time of the first data in the app's page. */
  clock?: { now(): number };
}

/** A request id a trusted proxy sent (X-Request-Id), when it has a plain shape; else null. */
function forwardedRequestId(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && /^[A-Za-z0-9._:-]{8,128}$/.test(header) ? header : null;
}

export async function createHttp(deps: HttpDeps): Promise<FastifyInstance> {
  const { engine, config } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    // The id of every log line of a request and of its answer's X-Request-Id: a trusted proxy's (so one id
    // follows a request from the balancer's log to ours), else a new one.
    genReqId: (request) =>
      (config.trustProxy > 0 && forwardedRequestId(request.headers['x-request-id'])) || randomUUID(),
    // Fastify's own request logging writes two lines per request at info (request-log.ts writes one).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.maxBodyBytes,
    trustProxy: config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
    // Receiving a 5 MiB upload over a slow mobile link takes longer than the engine may: only the call
    // itself is held to TIMEOUT_MS.
    requestTimeout: Math.max(config.timeoutMs, 120_000),
    return503OnClosing: true,
    // Closing waits for the requests in flight (each connection closes after its answer while draining);
    // server/app.ts cuts what is still open after the drain timeout.
    forceCloseConnections: false,
    routerOptions: { maxParamLength: 200 },
    // Route schemas refuse, never repair: no type coercion, no defaults, no silently dropped fields (the
    // engine refuses an unknown field, and a number where it wants a string).
    ajv: {
      customOptions: { coerceTypes: false, useDefaults: false, removeAdditional: false, allErrors: false },
    },
    // A URL Fastify cannot decode, or a media type it cannot read: the same envelopes as any refusal.
    frameworkErrors: (error, request, reply) => {
      if (request.method === 'OPTIONS') void (reply as FastifyReply).code(204).send();
      else void sendEnvelope(reply, errorEnvelope(error, config.maxBodyBytes));
    },
  });

  // Handlers and hooks first: the routes registered below inherit them.
  await app.register(envelopeErrors, { bodyLimit: config.maxBodyBytes });
  if (deps.logger) await app.register(requestLog);
  if (deps.metrics) await app.register(requestMetrics, { metrics: deps.metrics });
  const readiness = deps.readiness;
  if (readiness) {
    await app.register(probes, { readiness });
    // While draining, no connection is kept alive: each closes after its answer, so the balancer opens its
    // next one to another instance and the stop is not held up by idle keep-alive connections.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (readiness.isDraining) void reply.header('Connection', 'close');
      done(null, payload);
    });
  }
  await app.register(jsonBodies);
  await app.register(securityHeaders, { staticDir: config.staticDir });
  await app.register(corsForOrigins, { origins: config.corsOrigins });
  await app.register(rateLimits, { redis: deps.redis, prefix: config.redisPrefix });
  await app.register(uploads);
  await app.register(feedSocket, { hub: deps.hub });
  const staticDir = config.staticDir && existsSync(config.staticDir) ? resolve(config.staticDir) : undefined;
  if (staticDir) await app.register(staticApp, { root: staticDir });
  // Navigations get the app's page with the market list in it (app-page.ts): the engine answers it from memory.
  const clock = deps.clock ?? Date;
  const page = staticDir
    ? appPage({
        root: staticDir,
        now: () => clock.now(),
        answer: async (path) => (await engine.handle({ method: 'POST', path, headers: {}, body: {} })).body,
      })
    : null;
  await app.register(engineRoutes, {
    engine,
    timeoutMs: config.timeoutMs,
    captchaPerIpPerMinute: config.captchaPerIpPerMinute,
    loginPerIpPerMinute: config.loginPerIpPerMinute,
    loginGlobalPerMinute: config.loginGlobalPerMinute,
    servesApp: staticDir !== undefined,
    appPage: page,
    onAnswered: deps.onAnswered,
    unavailable: deps.unavailable,
    uploadsPerIpPerHour: config.uploadsPerIpPerHour,
    uploads: { store: deps.uploadStore },
  });
  return app;
}
