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
import type { SocketHub } from '../ws';
import { corsForOrigins } from './cors';
import { engineRoutes } from './engine-routes';
import { envelopeErrors, errorEnvelope, sendEnvelope } from './envelope';
import { jsonBodies } from './json-body';
import { rateLimits } from './rate-limits';
import { requestLog } from './request-log';
import { securityHeaders } from './security';
import { feedSocket } from './socket';
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
}

export async function createHttp(deps: HttpDeps): Promise<FastifyInstance> {
  const { engine, config } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    genReqId: () => randomUUID(),
    // Fastify's own request logging writes two lines per request at info (request-log.ts writes one).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.maxBodyBytes,
    trustProxy: config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
    // Receiving a 5 MiB upload over a slow mobile link takes longer than the engine may: only the call
    // itself is held to TIMEOUT_MS.
    requestTimeout: Math.max(config.timeoutMs, 120_000),
    return503OnClosing: true,
    forceCloseConnections: true,
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
  await app.register(jsonBodies);
  await app.register(securityHeaders, { staticDir: config.staticDir });
  await app.register(corsForOrigins, { origins: config.corsOrigins });
  await app.register(rateLimits, { redis: deps.redis, prefix: config.redisPrefix });
  await app.register(uploads);
  await app.register(feedSocket, { hub: deps.hub });
  const staticDir = config.staticDir && existsSync(config.staticDir) ? resolve(config.staticDir) : undefined;
  if (staticDir) await app.register(staticApp, { root: staticDir });
  await app.register(engineRoutes, {
    engine,
    timeoutMs: config.timeoutMs,
    captchaPerIpPerMinute: config.captchaPerIpPerMinute,
    loginPerIpPerMinute: config.loginPerIpPerMinute,
    loginGlobalPerMinute: config.loginGlobalPerMinute,
    servesApp: staticDir !== undefined,
    onAnswered: deps.onAnswered,
    unavailable: deps.unavailable,
  });
  return app;
}
