/**
 * HTTP on Fastify 5: every request to an engine path becomes one engine.handle({ method, path, headers,
 * body }) and its envelope goes back as HTTP 200 JSON (API.md "Envelope"). What only a network server needs
 * comes from Fastify's maintained plugins: security headers (@fastify/helmet), CORS for an allow-list of
 * origins (@fastify/cors), per-IP limits on captchas and logins (@fastify/rate-limit, Redis-backed when
 * REDIS_URL is set), uploads (@fastify/multipart), the feed (@fastify/websocket, server/ws.ts) and the
 * built app (@fastify/static). Bodies are checked before the engine is asked: JSON only, bounded in size
 * and depth, no NUL characters; anything refused answers a catalogue code, never a 500 or a stack trace.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import cors from '@fastify/cors';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import type { Redis } from 'ioredis';
import type { Engine, EngineRequest, EngineResponse } from '../engine/index';
import { CLIENT_IP_HEADER, PAGE_ORIGIN_HEADER, syncable } from '../engine/server';
import type { ServerConfig } from './config';
import { redisWithFallback, type FallbackState } from './rate-store';
import type { SocketHub } from './ws';
import { sendPage, serveBuild } from './static-app';

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
  /** Answers 503 to engine calls while the storage is known to be unreachable (server/health.ts). */
  unavailable?: () => string | null;
}

export const CAPTCHA_PATH = '/index/index/verify';
export const LOGIN_PATH = '/api/index/login';
/** Calls that sign a member in, each under the per-IP and global login limits. */
const LOGIN_PATHS = new Set([
  LOGIN_PATH,
  '/api/security/passkey/loginoptions',
  '/api/security/passkey/login',
]);
/** Calls waiting for the engine beyond this answer 503 at once instead of queueing without bound. */
const MAX_IN_FLIGHT = 512;
/** JSON nested deeper than this is refused before it is parsed by the engine (no contract body nests 4). */
export const MAX_JSON_DEPTH = 16;
/** Paths the engine answers (the wire contract), never shadowed by the app's index.html. */
const ENGINE_PATH = /^\/(api|index|uploads|test|ws)(\/|$)/;
/** The member's own mutating calls: those an Idempotency-Key applies to (engine/sync/mutations.ts). */
const isSyncable = syncable();
const IDEMPOTENCY_KEY = /^[\w.:-]{1,100}$/;

/**
 * A direct call carrying `Idempotency-Key` runs as a one-mutation /api/sync/push under that key, so the
 * engine applies it at most once per member and key and records its answer (rule Y1): a retry, after a
 * lost answer or a 504, gets the first answer instead of applying twice. Calls that are not the member's
 * own mutations (reads, sign-in and sign-up, uploads) ignore the header.
 */
export async function callWithKey(
  engine: Engine,
  request: EngineRequest,
  key: string | undefined,
): Promise<EngineResponse> {
  if (key === undefined || request.method !== 'POST' || !isSyncable(request.path))
    return engine.handle(request);
  if (!IDEMPOTENCY_KEY.test(key))
    return envelope(400, 'Idempotency-Key must be 1-100 letters, digits, "_", "-", "." or ":"');
  const pushed = await engine.handle({
    method: 'POST',
    path: '/api/sync/push',
    headers: request.headers,
    body: {
      clientId: 'idempotency-key',
      mutations: [{ id: `key:${key}`, name: request.path, args: request.body ?? {} }],
    },
  });
  const result = (
    pushed.body.data as { results?: Array<{ code: number; msg: string; data: unknown }> } | null
  )?.results?.[0];
  if (pushed.body.code !== 0 || !result) return pushed;
  return envelope(result.code, result.msg, result.data);
}

const UPLOAD_PATHS = new Set(['/api/user/uploads', '/api/Recharges/uploads']);
const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

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

/** A request refused before the engine: answered as the envelope `{ code, msg }`. */
export class Refusal extends Error {
  constructor(
    readonly envelopeCode: number,
    message: string,
  ) {
    super(message);
  }
}

function envelope(code: number, msg: string, data: unknown = null): EngineResponse {
  return { status: 200, body: { code, msg, data } };
}

function headersOf(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') out[name] = value;
    else if (Array.isArray(value)) out[name] = value.join(', ');
  }
  // The client's address as the connection (or the trusted proxies) gives it, for the member's device list;
  // whatever a client sent under this name is overwritten.
  out[CLIENT_IP_HEADER] = req.ip;
  // A page this server serves itself (STATIC_DIR) may use passkeys: its Origin is the request's own.
  delete out[PAGE_ORIGIN_HEADER];
  const origin = out['origin'];
  if (origin && origin === `${req.protocol}://${req.host}`) out[PAGE_ORIGIN_HEADER] = origin;
  return out;
}

/** Depth, NUL characters and prototype keys of a parsed JSON value, checked without recursion. */
function checkJsonValue(value: unknown): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw new Refusal(400, 'The request contains a NUL character');
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_JSON_DEPTH) throw new Refusal(400, 'The request body is nested too deeply');
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(v)) {
      if (key === '__proto__' || key === 'constructor' || key.includes('\u0000'))
        throw new Refusal(400, 'The request body has a forbidden key');
      stack.push([item, depth + 1]);
    }
  }
}

/** Every non-multipart body must be JSON (the contract's only other format); parsed and checked here. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Refusal(400, 'Malformed JSON in the request body');
  }
  checkJsonValue(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Refusal(400, 'The request body must be a JSON object');
  return value;
}

const SIGNATURES: Array<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46]],
];

/** The file's type by its leading bytes (never its name or declared type); undefined when not allowed. */
export function sniffUpload(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, sig]) => sig.every((b, i) => bytes[i] === b))?.[0];
}

/** The multipart body of an upload: its one `file`, checked by its bytes, as the engine's `{ file }`. */
async function uploadBody(req: FastifyRequest): Promise<{ file: File } | undefined> {
  let file: File | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      const bytes = await part.toBuffer();
      if (part.fieldname !== 'file' || file) continue;
      const type = sniffUpload(bytes);
      if (!type) throw new Refusal(400, 'Only PNG, JPEG, WebP, GIF or PDF files are accepted');
      file = new File([new Uint8Array(bytes)], part.filename || 'upload', { type });
    }
  } catch (error) {
    if (error instanceof Refusal) throw error;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /LIMIT|TOO_LARGE/.test(code))
      throw new Refusal(413, `The file is larger than ${UPLOAD_MAX_BYTES / 1048576} MiB`);
    throw new Refusal(400, 'Malformed multipart body');
  }
  return file ? { file } : undefined;
}

/** Drains a multipart body sent to a path that takes none, so the connection stays usable. */
async function drainParts(req: FastifyRequest): Promise<void> {
  try {
    for await (const part of req.parts()) if (part.type === 'file') await part.toBuffer();
  } catch {
    throw new Refusal(400, 'Malformed multipart body');
  }
}

/**
 * An <img> cannot read an envelope: a stored upload is answered as its bytes, unless the caller asks for
 * JSON (Accept: application/json), which gets the engine's envelope `{ name, type, size, dataUrl }`.
 */
function sendUpload(req: FastifyRequest, reply: FastifyReply, response: EngineResponse): boolean {
  const data = response.body.data as { type?: unknown; dataUrl?: unknown } | null;
  const wantsJson = /^application\/json\b/i.test(req.headers.accept ?? '');
  if (wantsJson || response.body.code !== 0 || typeof data?.dataUrl !== 'string') return false;
  const match = /^data:([\w./+-]+);base64,(.*)$/s.exec(data.dataUrl);
  if (!match?.[1] || match[2] === undefined) return false;
  void reply
    .type(match[1])
    // Identity documents: the owner's only (the engine checked the session), never kept by a cache, never
    // sniffed into something executable.
    .header('Cache-Control', 'private, no-store')
    .header('Content-Security-Policy', "default-src 'none'")
    .send(Buffer.from(match[2], 'base64'));
  return true;
}

/** Replies that answered a refusal or a failure (envelope code not 0): logged at info (requestLog). */
const refusedReplies = new WeakSet<FastifyReply>();
/** An answer slower than this is logged at info however it went. */
export const SLOW_REQUEST_MS = 1_000;

function sendEnvelope(reply: FastifyReply, response: EngineResponse): FastifyReply {
  if (response.body.code !== 0) refusedReplies.add(reply);
  let text: string;
  try {
    text = JSON.stringify(response.body);
  } catch {
    text = JSON.stringify(envelope(500, 'Server exception').body);
  }
  return reply
    .code(response.status)
    .type('application/json; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(text);
}

function withTimeout<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A route schema's refusal, worded like the engine's zod refusals (field names only, no values). */
function validationMessage(issues: NonNullable<FastifyError['validation']>): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const params = issue.params as { additionalProperty?: unknown; missingProperty?: unknown };
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'additionalProperties')
      return `unknown field "${String(params.additionalProperty).slice(0, 80)}"`;
    if (issue.keyword === 'required') {
      const missing = String(params.missingProperty).slice(0, 80);
      return `${field ? `${field}.` : ''}${missing}: is required`;
    }
    return field
      ? `${field.slice(0, 80)}: ${issue.message ?? 'is invalid'}`
      : (issue.message ?? 'is invalid');
  });
  return `Invalid request: ${parts.join('; ')}`;
}

/** The envelope for a refused or failed request: catalogue codes only, never the request echoed back. */
export function errorEnvelope(error: FastifyError | Refusal, bodyLimit: number): EngineResponse {
  if (error instanceof Refusal) return envelope(error.envelopeCode, error.message);
  // A body refused by its route's schema (generated from the engine's zod schema): the engine's 400.
  if (error.validation) return envelope(400, validationMessage(error.validation));
  const status = error.statusCode ?? 500;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
    return envelope(413, `The request body is larger than ${Math.floor(bodyLimit / 1024)} KiB`);
  if (status === 429) return envelope(429, 'Too many requests: wait a minute and try again');
  if (status === 503) return envelope(503, 'The server is unavailable: try again in a moment');
  if (status === 415) return envelope(400, 'The request body must be JSON or multipart/form-data');
  if (status >= 400 && status < 500) return envelope(400, 'Malformed request');
  return envelope(500, 'Server exception');
}

/** SHA-256 sources of the inline scripts of the app's index.html, for the CSP's script-src. */
function inlineScriptHashes(staticDir: string | undefined): string[] {
  if (!staticDir) return [];
  const index = join(staticDir, 'index.html');
  if (!existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = match[1] ?? '';
    if (body.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

/**
 * One log line per answered request, with its request id (reqId), method, URL, status and time: at info
 * for a refusal or failure (an HTTP status >= 400, or an envelope code other than 0) and for an answer
 * slower than SLOW_REQUEST_MS; every other request at debug. Bodies and headers are never logged.
 */
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

function requestLog(app: FastifyInstance): void {
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
}

/** Headers of an answer that are not helmet's (Fastify's own and the transport's). */
const NOT_SECURITY = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers @fastify/helmet sets with `options`, read once from a throwaway instance's answer: none of
 * them depends on the request (no CSP nonces are used).
 */
async function securityHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, options);
    probe.get('/', (_request, reply) => reply.send(''));
    const answer = await probe.inject({ method: 'GET', url: '/' });
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (NOT_SECURITY.has(name) || value === undefined) continue;
      out[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return out;
  } finally {
    await probe.close();
  }
}

export async function createHttp(deps: HttpDeps): Promise<FastifyInstance> {
  const { engine, config, hub } = deps;
  const options: FastifyServerOptions = {
    logger: deps.logger ?? false,
    genReqId: () => randomUUID(),
    // Fastify's own request logging writes two lines per request at info (measured: docs/SERVER.md "Load
    // figures"); requestLog below writes one, at info only for what an operator looks for.
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
  };
  const app = Fastify(options);

  // Every body is JSON (checked here) or multipart (@fastify/multipart below); other types are read as
  // JSON text, so a mislabelled body gets the same catalogue answer as a malformed one.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  if (deps.logger) requestLog(app);

  app.setErrorHandler((error: FastifyError | Refusal, request, reply) => {
    if (request.method === 'OPTIONS') return reply.code(204).send();
    const answer = errorEnvelope(error, config.maxBodyBytes);
    if (answer.body.code === 500) request.log.error({ err: error }, 'request failed');
    // The rest of an oversized body is not read: close the connection once the answer is out.
    if (answer.body.code === 413) void reply.header('Connection', 'close');
    return sendEnvelope(reply, answer);
  });
  app.setNotFoundHandler((request, reply) =>
    // A preflight from an origin that is not allowed: answered, but with no grant.
    request.method === 'OPTIONS'
      ? reply.code(204).send()
      : sendEnvelope(reply, envelope(404, 'Resource not found')),
  );

  // The security headers are the same on every answer: computed once by @fastify/helmet at start
  // (securityHeaders below) and set by one synchronous hook, instead of the plugin building helmet's whole
  // middleware again for every request (its CSP parsed and re-serialised each time).
  const security = await securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(config.staticDir)],
        // React style attributes and the charts' inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    hsts: false,
    // Uploaded images are shown by the app from its own origin, which may differ from the API's.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(security);
    void reply.header('X-Request-Id', request.id);
    // HSTS only where the client reached us over TLS (directly, or per a trusted proxy's header).
    if (request.protocol === 'https')
      void reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    done();
  });

  const anyOrigin = config.corsOrigins.includes('*');
  await app.register(cors, {
    // '*' answers the literal wildcard; otherwise only a listed origin is granted, never reflected.
    origin: anyOrigin
      ? '*'
      : (origin, cb) => cb(null, origin !== undefined && config.corsOrigins.includes(origin)),
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'UserId', 'Content-Type', 'Idempotency-Key', 'X-Device-Id'],
    exposedHeaders: ['X-Request-Id'],
    maxAge: 600,
    strictPreflight: false,
  });

  const fallback: FallbackState = {
    fallbacks: 0,
    onFallback: (error) =>
      app.log.warn({ err: error.message }, 'rate limits: Redis failed, counting in memory'),
  };
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { store: redisWithFallback(deps.redis, fallback, config.redisPrefix) } : {}),
    errorResponseBuilder: (_req, context) => {
      const error = new Error(`Rate limit exceeded, retry in ${context.after}`) as Error & {
        statusCode: number;
      };
      error.statusCode = 429;
      return error;
    },
  });

  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 50 },
  });

  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  // An upgrade anywhere but /ws is refused before the handshake (the plugin would accept, then close).
  app.addHook('onRequest', (request, reply, done) => {
    if (request.ws && request.url.split('?')[0] !== '/ws') {
      void reply.hijack();
      request.raw.socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    done();
  });
  app.get('/ws', { websocket: true }, (socket, request) => hub.accept(socket, request.ip));

  const staticDir = config.staticDir && existsSync(config.staticDir) ? resolve(config.staticDir) : undefined;
  if (staticDir) {
    await serveBuild(app, staticDir);
  }

  let inFlight = 0;
  const late = envelope(504, 'The server took too long to answer: check the result before trying again');

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const method = request.method.toUpperCase();
    const path = request.url.split('?')[0] ?? '/';
    if (
      staticDir &&
      (method === 'GET' || method === 'HEAD') &&
      !ENGINE_PATH.test(path) &&
      /text\/html/.test(request.headers.accept ?? '')
    ) {
      return sendPage(reply, path);
    }
    let body: unknown = request.body;
    if (request.isMultipart()) {
      if (UPLOAD_PATHS.has(path)) body = await uploadBody(request);
      else {
        await drainParts(request);
        body = undefined;
      }
    }
    const down = deps.unavailable?.();
    if (down) return sendEnvelope(reply, envelope(503, down));
    if (inFlight >= MAX_IN_FLIGHT) {
      return sendEnvelope(reply, envelope(503, 'The server is busy: try again in a moment'));
    }
    const headers = headersOf(request);
    inFlight++;
    const work = callWithKey(engine, { method, path, headers, body }, headers['idempotency-key'])
      .then((response) => {
        // Also for a call that outlived its timeout: a late logout still ends the sockets' session.
        deps.onAnswered?.(path, headers, response);
        return response;
      })
      .finally(() => {
        inFlight--;
      });
    const response = await withTimeout(work, config.timeoutMs, late);
    if (method === 'GET' && path.startsWith('/uploads/') && sendUpload(request, reply, response))
      return reply;
    return sendEnvelope(reply, response);
  }

  app.get(
    CAPTCHA_PATH,
    { config: { rateLimit: { max: config.captchaPerIpPerMinute, timeWindow: 60_000 } } },
    handle,
  );
  const loginLimits = [
    app.rateLimit({ max: config.loginPerIpPerMinute, timeWindow: 60_000, keyGenerator: (r) => `ip:${r.ip}` }),
    app.rateLimit({ max: config.loginGlobalPerMinute, timeWindow: 60_000, keyGenerator: () => 'all' }),
  ];
  // The member API's POST calls, each with its body's JSON Schema generated from the engine's own zod schema
  // (engine/router.ts RouteDescription): a malformed body is refused by Fastify's validator with the
  // engine's 400 and never reaches the engine. Registered at the contract's spelling and in lower case;
  // other spellings (the engine matches paths case-insensitively, with a trailing slash), raw (multipart)
  // and patterned calls reach the catch-all below, where the engine checks bodies itself.
  const routes = engine.diagnostics.routes();
  for (const route of routes) {
    if (route.method !== 'POST' || !route.body || route.path.includes('/:')) continue;
    for (const url of new Set([route.path, route.path.toLowerCase()])) {
      app.post(
        url,
        {
          schema: { body: route.body },
          // No body is the empty object, as the engine reads it.
          preValidation: async (request) => {
            request.body ??= {};
          },
          ...(LOGIN_PATHS.has(url.toLowerCase()) ? { onRequest: loginLimits } : {}),
        },
        handle,
      );
    }
  }
  if (!routes.some((r) => r.path === LOGIN_PATH)) app.post(LOGIN_PATH, { onRequest: loginLimits }, handle);
  app.route({ method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], url: '/*', handler: handle });
  return app;
}
