/**
 * The member API: every request to an engine path becomes one engine.handle({ method, path, headers, body })
 * and its envelope goes back through the envelope response schema (API.md "Envelope"). JSON POST calls are
 * routes of their own, each with its body's JSON Schema generated from the engine's zod schema
 * (engine/router.ts RouteDescription); everything else reaches the catch-all, where the engine checks bodies
 * itself. Navigations (GET asking for HTML) outside the engine's paths get the built app's page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { callEngine, type Engine, type EngineRequest, type EngineResponse } from '../../engine/index';
import { CLIENT_IP_HEADER, PAGE_ORIGIN_HEADER, syncable } from '../../engine/server';
import { ENVELOPE_SCHEMA, envelope, Refusal, sendEnvelope } from './envelope';
import type { AppPage } from './app-page';
import { sendPage } from './static-app';
import {
  answerStoredUpload,
  bodyOf,
  sendUpload,
  storedUploadOf,
  UPLOAD_PATHS,
  type UploadIntake,
} from './uploads';

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
  const pushed = await callEngine(engine, '/api/sync/push', request.headers ?? {}, {
    clientId: 'idempotency-key',
    mutations: [{ id: `key:${key}`, name: request.path, args: request.body ?? {} }],
  });
  const result = pushed.body.code === 0 ? pushed.body.data?.results[0] : undefined;
  if (pushed.body.code !== 0 || !result) return pushed;
  return envelope(result.code, result.msg, result.data);
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

function withTimeout<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface EngineRoutesOptions {
  engine: Engine;
  /** Held to this long per call (TIMEOUT_MS): a slower one answers 504. */
  timeoutMs: number;
  /** Captchas per client IP per minute. */
  captchaPerIpPerMinute: number;
  /** Logins per client IP, and in all, per minute. */
  loginPerIpPerMinute: number;
  loginGlobalPerMinute: number;
  /** Navigations get the built app's pages (static-app.ts) when it is served. */
  servesApp: boolean;
  /** The member app's page with its first data (app-page.ts); absent: the file as built. */
  appPage?: AppPage | null;
  /** Told of every answered call (the socket hub re-checks sessions after logout or a password change). */
  onAnswered?: (path: string, headers: Record<string, string>, response: EngineResponse) => void;
  /** Answers 503 to engine calls while the storage is known to be unreachable. */
  unavailable?: () => string | null;
  /** Upload attempts per client IP per hour, and where uploads' bytes go (SQL storage: the upload store). */
  uploadsPerIpPerHour: number;
  uploads: UploadIntake;
}

export async function engineRoutes(app: FastifyInstance, options: EngineRoutesOptions): Promise<void> {
  const { engine } = options;
  let inFlight = 0;
  const late = envelope(504, 'The server took too long to answer: check the result before trying again');
  const answers = { response: { 200: ENVELOPE_SCHEMA } };

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const method = request.method.toUpperCase();
    const path = request.url.split('?')[0] ?? '/';
    if (
      options.servesApp &&
      (method === 'GET' || method === 'HEAD') &&
      !ENGINE_PATH.test(path) &&
      (path === '/' || /text\/html/.test(request.headers.accept ?? ''))
    ) {
      return sendPage(reply, path, options.appPage ? { page: options.appPage, request } : undefined);
    }
    const down = options.unavailable?.();
    if (down) return sendEnvelope(reply, envelope(503, down));
    if (method === 'POST' && UPLOAD_PATHS.has(path)) await uploadLimit(request, reply);
    const body = await bodyOf(request, path, options.uploads);
    const store = options.uploads.store;
    // A stored upload the engine does not record (refused, or no answer in the end) leaves nothing behind.
    const held = storedUploadOf(body);
    const dropUnless = (response: EngineResponse) => {
      if (held && response.body.code !== 0) void store?.discard(held.id).catch(() => undefined);
      return response;
    };
    if (method === 'GET' && store) {
      const stored = await answerStoredUpload(request, reply, path, store, async () => {
        const me = await callEngine(engine, '/api/user/getuser', headersOf(request));
        const id = me.body.data?.id;
        return me.body.code === 0 && id !== undefined ? String(id) : null;
      });
      if (stored === 'sent') return reply;
      if (stored) return sendEnvelope(reply, stored);
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      return sendEnvelope(reply, dropUnless(envelope(503, 'The server is busy: try again in a moment')));
    }
    const headers = headersOf(request);
    inFlight++;
    const work = callWithKey(engine, { method, path, headers, body }, headers['idempotency-key'])
      .then((response) => {
        // Also for a call that outlived its timeout: a late logout still ends the sockets' session.
        options.onAnswered?.(path, headers, response);
        return dropUnless(response);
      })
      .finally(() => {
        inFlight--;
      });
    const response = await withTimeout(work, options.timeoutMs, late);
    if (method === 'GET' && path.startsWith('/uploads/') && sendUpload(request, reply, response))
      return reply;
    return sendEnvelope(reply, response);
  }

  app.get(
    CAPTCHA_PATH,
    {
      schema: answers,
      config: { rateLimit: { max: options.captchaPerIpPerMinute, timeWindow: 60_000 } },
    },
    handle,
  );
  // Both limits count every login call. Not two app.rateLimit() hooks: the plugin marks a request as limited
  // after the first of its hooks, so a second one returns at once and the global limit never counted.
  const loginCounters = [
    app.createRateLimit({
      max: options.loginPerIpPerMinute,
      timeWindow: 60_000,
      keyGenerator: (r) => `ip:${r.ip}`,
    }),
    app.createRateLimit({ max: options.loginGlobalPerMinute, timeWindow: 60_000, keyGenerator: () => 'all' }),
  ];
  // Upload attempts per client IP (refused ones too), counted before the first byte is read.
  const uploadCounter = app.createRateLimit({
    max: options.uploadsPerIpPerHour,
    timeWindow: 3_600_000,
    keyGenerator: (r) => `upload:${r.ip}`,
  });
  const uploadLimit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const limit = await uploadCounter(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    void reply.header('retry-after', limit.ttlInSeconds);
    throw new Refusal(
      429,
      `Too many uploads from this address (${options.uploadsPerIpPerHour} an hour): try again later`,
    );
  };
  const loginLimits = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    for (const count of loginCounters) {
      const limit = await count(request);
      if (limit.isAllowed || !limit.isExceeded) continue;
      void reply.header('retry-after', limit.ttlInSeconds);
      throw Object.assign(new Error(`Rate limit exceeded, retry in ${limit.ttlInSeconds} s`), {
        statusCode: 429,
      });
    }
  };
  // Registered at the contract's spelling and in lower case; other spellings (the engine matches paths
  // case-insensitively, with a trailing slash), raw (multipart) and patterned calls reach the catch-all.
  const routes = engine.diagnostics.routes();
  for (const route of routes) {
    if (route.method !== 'POST' || !route.body || route.path.includes('/:')) continue;
    for (const url of new Set([route.path, route.path.toLowerCase()])) {
      const shorthand: RouteShorthandOptions = {
        schema: { body: route.body, ...answers },
        // No body is the empty object, as the engine reads it.
        preValidation: async (request: { body: unknown }) => {
          request.body ??= {};
        },
        ...(LOGIN_PATHS.has(url.toLowerCase()) ? { onRequest: loginLimits } : {}),
      };
      app.post(url, shorthand, handle);
    }
  }
  if (!routes.some((r) => r.path === LOGIN_PATH))
    app.post(LOGIN_PATH, { schema: answers, onRequest: loginLimits }, handle);
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    url: '/*',
    schema: answers,
    handler: handle,
  });
}
