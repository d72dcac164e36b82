/**
 * The operator API's route table, declared once: per route its grant, its input schema (zod: strict objects,
 * trimmed text, bounded sizes) and its answer's type. The server registers each route from it (schema
 * validation by Fastify, server/admin/route.ts) and types its handler from it; the console's client
 * (src/admin/api.ts) types its calls from it, importing types only (the schemas stay out of its bundle).
 *
 * Envelope and conventions as the member API (docs/API.md "Envelope"): every answer is HTTP 200 with
 * `{ code, msg, data }`, code 0 is success; amounts are exact decimal strings; times are Unix seconds; lists
 * take `page` (1-based) and `limit` (default 20, max 100) and answer newest first. GET routes take their
 * parameters as a query string, POST routes as a JSON body.
 *
 * Authentication: `Authorization: Bearer <operator token>` from POST /api/admin/login. Operator sessions are
 * their own table: a member's token is never an operator's (401), and an operator token is never a member's.
 *
 * Codes: 401 no or expired operator session; 403 the operator's role may not do this (or the operator is
 * disabled); 423 the operator is locked out after repeated failed logins (`msg` says until when); 400
 * invalid input (a clear `msg`, nothing changed); 404 no such record; 409 the record is no longer in a state
 * that allows this (already decided, being sent) or a maker-checker rule (the same operator cannot give
 * both approvals); 503 a dependency (chain gateway, signer, database) is not available, nothing changed.
 */
import { z } from 'zod';
import { parseAmountText } from '../../engine/index';
import {
  CERT_STATUSES,
  DEPOSIT_STATUSES,
  OPERATOR_USERNAME,
  ROLES,
  WITHDRAWAL_STATUSES,
  type AdminCert,
  type AdminDeposit,
  type AdminMarket,
  type AdminMarketPair,
  type AdminList,
  type AdminMember,
  type AdminMemberDetail,
  type AdminSettings,
  type AdminWithdrawal,
  type AuditEntry,
  type Operator,
  type ROLE_GRANTS,
  type Solvency,
} from './model';

/** Who may call a route: anyone (login), any signed-in operator, or the roles of a ROLE_GRANTS group. */
export type AdminGrant = 'public' | 'session' | keyof typeof ROLE_GRANTS;

// ---------------------------------------------------------------------------------------------------------
// Input pieces

const id = z
  .string()
  .trim()
  .regex(/^[\w.:-]{1,64}$/, 'must be a record id');
const operatorId = z
  .string()
  .trim()
  .regex(/^\d{1,18}$/, 'must be an operator id');
const reason = z.string().trim().min(1, 'a reason is required').max(500);
/** A whole number from a query string ("2") or a JSON body (2). */
const whole = (min: number, max: number, fallback: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,16}$/, 'must be a whole number'),
    ])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);
const page = whole(1, 1_000_000, 1);
const limit = whole(1, 100, 20);
const q = z.string().trim().max(100).optional();
/** A boolean in a JSON body, or "true"/"false" in a query string. */
const bool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const empty = z.object({}).strict();
const queue = <S extends string>(statuses: readonly [S, ...S[]]) =>
  z.object({ page, limit, q, status: z.enum(statuses).optional() }).strict();
const byId = z.object({ id }).strict();
const decision = z.object({ id, reason }).strict();

/** Carries a route's answer type; no value ever has it. */
declare const answer: unique symbol;

/** One route: its grant, its input schema and (as a type only) its answer. */
export interface AdminRouteSpec<G extends AdminGrant, Input extends z.ZodType, Data> {
  grant: G;
  input: Input;
  readonly [answer]?: Data;
}

function route<Data>() {
  return <G extends AdminGrant, Input extends z.ZodType>(
    grant: G,
    input: Input,
  ): AdminRouteSpec<G, Input, Data> => ({ grant, input });
}

export const ADMIN_ROUTES = {
  // Sessions
  'POST /api/admin/login': route<{ token: string; expiresAt: number; operator: Operator }>()(
    'public',
    z
      .object({
        username: z.string().min(1).max(64),
        password: z.string().min(1).max(256),
        totp: z
          .string()
          .trim()
          .regex(/^\d{6}$/, 'must be the 6-digit code'),
      })
      .strict(),
  ),
  'POST /api/admin/logout': route<null>()('session', empty),
  'GET /api/admin/me': route<Operator>()('session', empty),

  // Withdrawals
  'GET /api/admin/withdrawals': route<AdminList<AdminWithdrawal>>()('review', queue(WITHDRAWAL_STATUSES)),
  /** First or second approval; the last one needed sends it through the chain gateway and records the hash. */
  'POST /api/admin/withdrawals/approve': route<AdminWithdrawal>()('review', byId),
  'POST /api/admin/withdrawals/reject': route<AdminWithdrawal>()('review', decision),
  /**
   * A withdrawal stuck `sending` with no recorded broadcast back to `pending` (the hold stays frozen); 409
   * when a broadcast is recorded (only the reconciler decides) or it is not being sent.
   */
  'POST /api/admin/withdrawals/release': route<AdminWithdrawal>()('review', decision),

  // Manual deposits
  'GET /api/admin/deposits': route<AdminList<AdminDeposit>>()('read', queue(DEPOSIT_STATUSES)),
  'POST /api/admin/deposits/credit': route<AdminDeposit>()('finance', decision),
  'POST /api/admin/deposits/reject': route<AdminDeposit>()('review', decision),

  // Identity checks
  'GET /api/admin/certs': route<AdminList<AdminCert>>()('review', queue(CERT_STATUSES)),
  'POST /api/admin/certs/decide': route<AdminCert>()(
    'review',
    z.object({ id, passed: z.boolean(), reason: z.string().trim().max(500).optional() }).strict(),
  ),

  // Members
  'GET /api/admin/members': route<AdminList<AdminMember>>()('read', z.object({ page, limit, q }).strict()),
  'GET /api/admin/members/detail': route<AdminMemberDetail>()('read', byId),
  'POST /api/admin/members/lock': route<AdminMember>()(
    'admin',
    z.object({ id, locked: z.boolean(), reason }).strict(),
  ),

  // Audit log
  'GET /api/admin/audit': route<AdminList<AuditEntry>>()(
    'admin',
    z
      .object({
        page,
        limit,
        operatorId: operatorId.optional(),
        action: z.string().trim().max(64).optional(),
      })
      .strict(),
  ),

  // Operators
  'GET /api/admin/operators': route<Operator[]>()('admin', empty),
  /** Answers the new operator's TOTP secret once (never again): the admin hands it over out of band. */
  'POST /api/admin/operators/create': route<{ operator: Operator; totpSecret: string; otpauthUrl: string }>()(
    'admin',
    z
      .object({
        username: z.string().regex(OPERATOR_USERNAME, 'must be 3-32 letters, digits, ".", "_" or "-"'),
        password: z.string().min(12, 'needs at least 12 characters').max(256),
        role: z.enum(ROLES),
      })
      .strict(),
  ),
  'POST /api/admin/operators/update': route<Operator>()(
    'admin',
    z
      .object({ id: operatorId, role: z.enum(ROLES).optional(), disabled: bool.optional() })
      .strict()
      .refine((v) => v.role !== undefined || v.disabled !== undefined, 'give role or disabled'),
  ),

  // The house's risk and the kill switch (docs/OPERATIONS.md "Market data and the house's risk")
  'GET /api/admin/market': route<AdminMarket>()('read', empty),
  /**
   * Stops (halted: true) or resumes new orders in a pair; members may still close contract positions while
   * it is stopped. 404 for a pair the engine does not know, 409 when it already is so (nothing recorded).
   */
  'POST /api/admin/market/halt': route<AdminMarketPair>()(
    'admin',
    z
      .object({
        symbol: z
          .string()
          .trim()
          .regex(/^[A-Z0-9]{2,12}\/USDT$/, 'must be a pair such as BTC/USDT'),
        halted: z.boolean(),
        reason,
      })
      .strict(),
  ),

  // Solvency and settings
  'GET /api/admin/solvency': route<Solvency>()('read', empty),
  'GET /api/admin/settings': route<AdminSettings>()('admin', empty),
  'POST /api/admin/settings': route<AdminSettings>()(
    'admin',
    z
      .object({
        makerCheckerThreshold: z
          .string()
          .trim()
          .refine((v) => parseAmountText(v) !== null, 'must be a decimal amount >= 0 with up to 6 decimals'),
      })
      .strict(),
  ),
};

type Routes = typeof ADMIN_ROUTES;
export type AdminRoute = keyof Routes;
/** What the console sends (a route's input as its schema accepts it). */
export type AdminParams<R extends AdminRoute> = z.input<Routes[R]['input']>;
/** What the server's handler receives (the input as its schema parsed it). */
export type AdminInput<R extends AdminRoute> = z.output<Routes[R]['input']>;
/** What the route answers in `data`. */
export type AdminData<R extends AdminRoute> = DataOf[R];
type DataOf = {
  [R in AdminRoute]: Routes[R] extends AdminRouteSpec<AdminGrant, z.ZodType, infer D> ? D : never;
};
