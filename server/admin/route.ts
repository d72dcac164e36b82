/**
 * How an operator route is registered from the route table (contract/admin/routes.ts): its method and URL,
 * its input schema (validated by Fastify through the zod compiler of plugin.ts: a bad input answers 400 and
 * reaches no handler), its grant (checked by plugin.ts before validation: 401, 403), and a handler typed
 * from the table, whose answer goes out as the envelope `{ code: 0, msg: 'ok', data }`.
 */
import type { FastifyBaseLogger, FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMIN_ROUTES,
  type AdminData,
  type AdminGrant,
  type AdminInput,
  type AdminRoute,
} from '../../contract/admin/routes';
import type { Clock, Engine, Hasher } from '../../engine/index';
import type { ChainGateway, ChainNetwork } from '../chain/gateway';
import type { VenueState } from '../market-data/snapshot';
import type { SqlDriver } from '../sql-driver';
import { ENVELOPE_SCHEMA } from '../http/envelope';
import type { OperatorSession } from './auth';

export interface AdminSql {
  driver: SqlDriver;
  schema: string;
}

/** What the operator API is built from (server/app.ts passes it). */
export interface AdminOptions {
  engine: Engine;
  /** The store's SQL driver and schema; null on memory storage (every route then answers 503). */
  sql: AdminSql | null;
  clock: Clock;
  /** PBKDF2 cost of operator passwords (the members': PBKDF2_ITERATIONS or the engine's default). */
  pbkdf2Iterations: number;
  /** Where operator passwords are verified (the server's hash pool); WebCrypto when absent. */
  hasher?: Hasher;
  /** The chain gateway per network that sends approved withdrawals (demo: the simulated ones). */
  gateways: Partial<Record<ChainNetwork, ChainGateway>>;
  /** Operator logins per client IP per minute (LOGIN_PER_IP). */
  loginPerIpPerMinute: number;
  /** Where the engine's prices come from, and the venues' states per pair (server/market-data). */
  market: {
    mode: 'simulated' | 'venues' | 'none';
    venueStates(symbol: string): VenueState[];
  };
}

/** What every handler gets: the database, the client, the time of the request and its logger. */
export interface PublicContext {
  sql: AdminSql;
  ip: string;
  /** Milliseconds of the server's clock, whole. */
  now: number;
  log: FastifyBaseLogger;
}

/** A handler of a route that needs a session also gets the operator who called. */
export type OperatorContext = PublicContext & OperatorSession;

type ContextOf<R extends AdminRoute> = (typeof ADMIN_ROUTES)[R]['grant'] extends 'public'
  ? PublicContext
  : OperatorContext;

export type AdminHandler<R extends AdminRoute> = (
  ctx: ContextOf<R>,
  input: AdminInput<R>,
) => Promise<AdminData<R>>;

/** The grant of an operator route, as its Fastify route config carries it (read by plugin.ts). */
export interface AdminRouteConfig {
  adminGrant: AdminGrant;
}

/** The route config of a hand-registered operator route (one the table does not describe). */
export function grantConfig(adminGrant: AdminGrant): FastifyContextConfig {
  const config: AdminRouteConfig = { adminGrant };
  return config as FastifyContextConfig;
}

/** Set by plugin.ts's hook before validation; read by the handler. */
const contexts = new WeakMap<FastifyRequest, PublicContext | OperatorContext>();

export function setContext(request: FastifyRequest, ctx: PublicContext | OperatorContext): void {
  contexts.set(request, ctx);
}

export function contextOf(request: FastifyRequest): PublicContext | OperatorContext {
  const ctx = contexts.get(request);
  if (!ctx) throw new Error(`no operator context for ${request.url}`);
  return ctx;
}

/** Registers route `key` of the table with `handler`; `extra` adds route options (e.g. rate limits). */
export function adminRoute<R extends AdminRoute>(
  app: FastifyInstance,
  key: R,
  handler: AdminHandler<R>,
  extra: { config?: Record<string, unknown> } = {},
): void {
  const [method, url] = key.split(' ') as ['GET' | 'POST', string];
  const spec = ADMIN_ROUTES[key];
  const config: AdminRouteConfig & Record<string, unknown> = { ...extra.config, adminGrant: spec.grant };
  app.route({
    method,
    url,
    schema: {
      [method === 'GET' ? 'querystring' : 'body']: spec.input,
      response: { 200: ENVELOPE_SCHEMA },
    },
    config,
    handler: async (request, reply) => {
      void reply.header('Cache-Control', 'no-store');
      const input = (method === 'GET' ? request.query : request.body) as AdminInput<R>;
      const data = await handler(contextOf(request) as ContextOf<R>, input);
      return { code: 0, msg: 'ok', data };
    },
  });
}
