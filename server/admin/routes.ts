/**
 * The operator API (server/admin/contract.ts, docs/OPERATIONS.md "Operator API") as a Fastify plugin. Each
 * route: the operator session (401), the role per ROLE_GRANTS (403), the input checked by a strict zod schema
 * (400, nothing changed), then the work; answers are the member API's envelope (HTTP 200, `{ code, msg,
 * data }`). Every state-changing action appends one audit row in the same transaction as the change: on
 * the operator tables through inTransaction, and for decisions on money and member records, which go through
 * engine.operations (never by writing the engine's tables), as the decision's commit note (db.ts AuditNote).
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { StorageUnavailableError, type Clock, type Engine, type Hasher } from '../../engine/index';
import { BroadcastUncertainError, type ChainGateway, type ChainNetwork } from '../chain/gateway';
import type { SqlDriver } from '../sql-driver';
import { CommitNoteError, isConnectionLoss } from '../sql-store';
import { authenticate, insertOperator, login, newOperator, ROLES, USERNAME } from './auth';
import {
  ROLE_GRANTS,
  type AdminCertStatus,
  type AdminDepositStatus,
  type AdminWithdrawalStatus,
  type OperatorRole,
  type Solvency,
} from './contract';
import {
  AdminError,
  audit,
  auditNote,
  inTransaction,
  isUniqueViolation,
  OPERATOR_COLUMNS,
  operatorById,
  operatorView,
  setting,
  THRESHOLD_KEY,
  type OperatorRow,
} from './db';
import {
  CERT_STATUSES,
  certById,
  DEPOSIT_STATUSES,
  depositById,
  liabilities,
  listAudit,
  listCerts,
  listDeposits,
  listMembers,
  listWithdrawals,
  memberById,
  memberDetail,
  uploadById,
  WITHDRAWAL_STATUSES,
  withdrawalWithApprovals,
} from './queues';
import { isEngineError, formatAmount, parseAmountText } from '../../engine/server';

export interface AdminOptions {
  engine: Engine;
  /** The store's SQL driver and schema; null on memory storage (every route then answers 503). */
  sql: { driver: SqlDriver; schema: string } | null;
  clock: Clock;
  /** PBKDF2 cost of operator passwords (the members': PBKDF2_ITERATIONS or the engine's default). */
  pbkdf2Iterations: number;
  /** Where operator passwords are verified (the server's hash pool); WebCrypto when absent. */
  hasher?: Hasher;
  /** The chain gateway per network that sends approved withdrawals (demo: the simulated ones). */
  gateways: Partial<Record<ChainNetwork, ChainGateway>>;
  /** Operator logins per client IP per minute (LOGIN_PER_IP). */
  loginPerIpPerMinute: number;
}

type Grant = keyof typeof ROLE_GRANTS;

interface RouteContext {
  operator: OperatorRow;
  tokenHash: string;
  ip: string;
  now: number;
  log: FastifyBaseLogger;
}

// ---------------------------------------------------------------------------------------------------------
// Input schemas: strict objects (an unknown field is refused), trimmed text, bounded sizes.

const id = z
  .string()
  .trim()
  .regex(/^[\w.:-]{1,64}$/, 'must be a record id');
const reason = z.string().trim().min(1, 'a reason is required').max(500);
const page = z.coerce.number().int().min(1).max(1_000_000).default(1);
const limit = z.coerce.number().int().min(1).max(100).default(20);
const q = z.string().trim().max(100).optional();
const listParams = { page, limit, q };
const bool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const empty = z.object({}).strict();

const schemas = {
  login: z
    .object({
      username: z.string().min(1).max(64),
      password: z.string().min(1).max(256),
      totp: z
        .string()
        .trim()
        .regex(/^\d{6}$/, 'must be the 6-digit code'),
    })
    .strict(),
  withdrawals: z
    .object({ ...listParams, status: z.enum(WITHDRAWAL_STATUSES as [AdminWithdrawalStatus]).optional() })
    .strict(),
  deposits: z
    .object({ ...listParams, status: z.enum(DEPOSIT_STATUSES as [AdminDepositStatus]).optional() })
    .strict(),
  certs: z.object({ ...listParams, status: z.enum(CERT_STATUSES as [AdminCertStatus]).optional() }).strict(),
  members: z.object(listParams).strict(),
  byId: z.object({ id }).strict(),
  decision: z.object({ id, reason }).strict(),
  cert: z.object({ id, passed: z.boolean(), reason: z.string().trim().max(500).optional() }).strict(),
  lock: z.object({ id, locked: z.boolean(), reason }).strict(),
  audit: z
    .object({
      page,
      limit,
      operatorId: z
        .string()
        .trim()
        .regex(/^\d{1,18}$/, 'must be an operator id')
        .optional(),
      action: z.string().trim().max(64).optional(),
    })
    .strict(),
  createOperator: z
    .object({
      username: z.string().regex(USERNAME, 'must be 3-32 letters, digits, ".", "_" or "-"'),
      password: z.string().min(12, 'needs at least 12 characters').max(256),
      role: z.enum(ROLES as [OperatorRole]),
    })
    .strict(),
  updateOperator: z
    .object({
      id: z
        .string()
        .trim()
        .regex(/^\d{1,18}$/, 'must be an operator id'),
      role: z.enum(ROLES as [OperatorRole]).optional(),
      disabled: bool.optional(),
    })
    .strict()
    .refine((v) => v.role !== undefined || v.disabled !== undefined, 'give role or disabled'),
  settings: z
    .object({
      makerCheckerThreshold: z
        .string()
        .trim()
        .refine((v) => parseAmountText(v) !== null, 'must be a decimal amount >= 0 with up to 6 decimals'),
    })
    .strict(),
};

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || 'request';
  throw new AdminError(400, `Invalid request: ${field} ${issue?.message ?? 'is invalid'}`);
}

// ---------------------------------------------------------------------------------------------------------

const ok = (data: unknown) => ({ code: 0, msg: 'ok', data });

function send(reply: FastifyReply, body: { code: number; msg: string; data: unknown }): FastifyReply {
  return reply
    .code(200)
    .type('application/json; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(JSON.stringify(body));
}

/** Errors as envelopes: the contract's codes, engine refusals mapped, nothing else leaks. */
function answerError(request: FastifyRequest, error: unknown): { code: number; msg: string; data: null } {
  if (error instanceof AdminError) return { code: error.code, msg: error.message, data: null };
  if (error instanceof BroadcastUncertainError)
    return {
      code: 503,
      msg: `The broadcast's outcome is unknown (${error.txHash}): the withdrawal stays "sending" until the chain is checked`,
      data: null,
    };
  if (isEngineError(error)) {
    // The engine's "denied" on a decision means the record's state no longer allows it.
    const code = error.code === 403 ? 409 : error.code === 503 ? 503 : 400;
    return { code, msg: error.message, data: null };
  }
  if (error instanceof CommitNoteError) {
    request.log.error({ err: error }, 'audit row not written: the decision was rolled back');
    return {
      code: 503,
      msg: 'The audit log could not be written: nothing was changed, try again',
      data: null,
    };
  }
  if (error instanceof StorageUnavailableError || isConnectionLoss(error))
    return { code: 503, msg: 'The database is unavailable: nothing was changed, try again', data: null };
  request.log.error({ err: error }, 'operator route failed');
  return { code: 500, msg: 'Server exception', data: null };
}

export async function adminRoutes(app: FastifyInstance, options: AdminOptions): Promise<void> {
  const { engine, clock, gateways } = options;
  const now = () => Math.floor(clock.now());

  function sql(): { driver: SqlDriver; schema: string } {
    if (!options.sql) throw new AdminError(503, 'The back office needs SQL storage (PostgreSQL or PGlite)');
    return options.sql;
  }

  async function thresholdMicro(): Promise<bigint> {
    const { driver, schema } = sql();
    return parseAmountText(await setting(driver, schema, THRESHOLD_KEY, '10000')) ?? 0n;
  }

  function route(
    method: 'GET' | 'POST',
    url: string,
    grant: Grant | null,
    run: (ctx: RouteContext, input: unknown) => Promise<unknown>,
  ): void {
    app.route({
      method,
      url,
      handler: async (request, reply) => {
        try {
          const { driver, schema } = sql();
          const at = now();
          const session = await authenticate(driver, schema, request.headers.authorization, at);
          if (grant && !(ROLE_GRANTS[grant] as readonly OperatorRole[]).includes(session.operator.role))
            throw new AdminError(403, `The ${session.operator.role} role may not do this`);
          const input = method === 'GET' ? request.query : request.body;
          const data = await run({ ...session, ip: request.ip, now: at, log: request.log }, input);
          return send(reply, ok(data));
        } catch (error) {
          return send(reply, answerError(request, error));
        }
      },
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // Sessions

  app.post(
    '/api/admin/login',
    { config: { rateLimit: { max: options.loginPerIpPerMinute, timeWindow: 60_000 } } },
    async (request, reply) => {
      try {
        const { driver, schema } = sql();
        const input = parse(schemas.login, request.body);
        const result = await login(driver, schema, input, {
          nowMs: now(),
          ip: request.ip,
          iterations: options.pbkdf2Iterations,
          hasher: options.hasher,
        });
        return send(reply, ok(result));
      } catch (error) {
        return send(reply, answerError(request, error));
      }
    },
  );

  route('POST', '/api/admin/logout', null, async (ctx, input) => {
    parse(empty, input);
    const { driver, schema } = sql();
    await inTransaction(driver, async (c) => {
      await c.query(
        `UPDATE ${schema}.operator_sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL`,
        [ctx.tokenHash, ctx.now],
      );
      await audit(c, schema, {
        at: ctx.now,
        operator: ctx.operator,
        action: 'operator.logout',
        target: `operator:${ctx.operator.id}`,
        ip: ctx.ip,
      });
    });
    return null;
  });

  route('GET', '/api/admin/me', null, async (ctx, input) => {
    parse(empty, input);
    return operatorView(ctx.operator);
  });

  // -------------------------------------------------------------------------------------------------------
  // Withdrawals

  route('GET', '/api/admin/withdrawals', 'review', async (_ctx, input) => {
    const filter = parse(schemas.withdrawals, input);
    const { driver, schema } = sql();
    return listWithdrawals(driver, schema, filter, await thresholdMicro());
  });

  route('POST', '/api/admin/withdrawals/approve', 'review', async (ctx, input) => {
    const { id: withdrawalId } = parse(schemas.byId, input);
    const { driver, schema } = sql();
    const threshold = await thresholdMicro();
    const before = await withdrawalWithApprovals(driver, schema, withdrawalId, threshold);
    if (!before) throw new AdminError(404, 'No such withdrawal');
    if (before.status !== 'pending')
      throw new AdminError(409, `This withdrawal is ${before.status}: it can no longer be approved`);
    if (before.approvals.some((a) => a.operatorId === ctx.operator.id))
      throw new AdminError(409, 'You already approved this withdrawal: a second operator must approve it');
    const target = `withdrawal:${withdrawalId}`;
    const summary = {
      status: before.status,
      approvals: before.approvals.length,
      needed: before.approvalsNeeded,
    };
    const recordApproval = (after: unknown) =>
      inTransaction(driver, async (c) => {
        try {
          await c.query('SAVEPOINT approve');
          await c.query(
            `INSERT INTO ${schema}.withdrawal_approvals (withdrawal_id, operator_id, at) VALUES ($1, $2, $3)`,
            [withdrawalId, ctx.operator.id, ctx.now],
          );
          await c.query('RELEASE SAVEPOINT approve');
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          await c.query('ROLLBACK TO SAVEPOINT approve');
          throw new AdminError(
            409,
            'You already approved this withdrawal: a second operator must approve it',
          );
        }
        await audit(c, schema, {
          at: ctx.now,
          operator: ctx.operator,
          action: 'withdrawal.approve',
          target,
          before: summary,
          after,
          ip: ctx.ip,
        });
      });

    let recorded = false;
    if (before.approvals.length + 1 < before.approvalsNeeded) {
      // Maker: the first of two approvals; nothing is sent yet.
      await recordApproval({ ...summary, approvals: before.approvals.length + 1 });
      recorded = true;
      // Two makers at once can both see themselves first: then the later one also sends.
      const now2 = await withdrawalWithApprovals(driver, schema, withdrawalId, threshold);
      if (!now2 || now2.approvals.length < now2.approvalsNeeded) return now2;
    }
    // Checker (or the only approval needed): claim, send through the gateway, record the real hash.
    const gateway = gateways[before.network];
    if (!gateway)
      throw new AdminError(503, `No chain gateway is configured for ${before.network}: nothing was sent`);
    const claim = await engine.operations.claimWithdrawal(withdrawalId);
    if (!claim) throw new AdminError(409, 'This withdrawal is no longer pending or is being sent');
    // The uncertain outcome below is recorded on the operator tables alone (no engine decision is taken).
    const finish = (after: Record<string, unknown>) =>
      recorded
        ? inTransaction(driver, (c) =>
            audit(c, schema, {
              at: ctx.now,
              operator: ctx.operator,
              action: 'withdrawal.send',
              target,
              before: summary,
              after,
              ip: ctx.ip,
            }),
          )
        : recordApproval(after);
    let txHash: string;
    try {
      ({ txHash } = await gateway.sendWithdrawal({
        id: claim.id,
        to: claim.address,
        amount: claim.amount,
        // Recorded before the broadcast, for the reconciler of uncertain ones (server/chain/reconciler.ts).
        // If the claim is gone (an operator released it meanwhile), this throws and nothing is broadcast.
        onSigned: async (sent) => {
          if (!(await engine.operations.recordBroadcast(claim.id, sent)))
            throw new Error(
              'the withdrawal is no longer being sent (released meanwhile): nothing was broadcast',
            );
        },
      }));
    } catch (error) {
      if (error instanceof BroadcastUncertainError) {
        // It may be on chain: it stays claimed (sending); the approval and the hash are on record.
        await finish({ status: 'sending', txHash: error.txHash, uncertain: true });
        throw error;
      }
      await engine.operations.releaseWithdrawal(withdrawalId);
      throw new AdminError(
        503,
        `The chain gateway refused to send: ${(error as Error).message}`.slice(0, 300),
      );
    }
    // The hash recorded, the approval (unless a racing first approval recorded it) and the audit row: one
    // transaction.
    const sent = auditNote(
      {
        at: ctx.now,
        operator: ctx.operator,
        action: recorded ? 'withdrawal.send' : 'withdrawal.approve',
        target,
        before: summary,
        after: { status: 'success', txHash, approvals: before.approvals.length + 1 },
        ip: ctx.ip,
      },
      recorded ? undefined : { withdrawalId, operatorId: ctx.operator.id, at: ctx.now },
    );
    try {
      await engine.operations.completeWithdrawal(withdrawalId, txHash, sent);
    } catch (error) {
      // On chain, but not on record: it stays claimed (sending), as after an uncertain broadcast.
      ctx.log.error({ err: error, withdrawalId, txHash }, 'withdrawal sent but not recorded');
      throw new AdminError(
        503,
        `Sent as ${txHash}, but recording it failed: the withdrawal stays "sending" until the chain is checked`,
      );
    }
    return withdrawalWithApprovals(driver, schema, withdrawalId, threshold);
  });

  route('POST', '/api/admin/withdrawals/reject', 'review', async (ctx, input) => {
    const { id: withdrawalId, reason: why } = parse(schemas.decision, input);
    const { driver, schema } = sql();
    const threshold = await thresholdMicro();
    const before = await withdrawalWithApprovals(driver, schema, withdrawalId, threshold);
    if (!before) throw new AdminError(404, 'No such withdrawal');
    if (before.status !== 'pending')
      throw new AdminError(409, `This withdrawal is ${before.status}: it can no longer be rejected`);
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: 'withdrawal.reject',
      target: `withdrawal:${withdrawalId}`,
      before: { status: before.status, amount: before.amount },
      after: { status: 'rejected' },
      reason: why,
      ip: ctx.ip,
    });
    if (!(await engine.operations.rejectWithdrawal(withdrawalId, why, note)))
      throw new AdminError(409, 'This withdrawal is no longer pending');
    return withdrawalWithApprovals(driver, schema, withdrawalId, threshold);
  });

  // A withdrawal stuck "sending" with no recorded broadcast (the process stopped between the claim and the
  // signature) back to review. With a recorded hash it may be on chain: only the reconciler decides (409).
  route('POST', '/api/admin/withdrawals/release', 'review', async (ctx, input) => {
    const { id: withdrawalId, reason: why } = parse(schemas.decision, input);
    const { driver, schema } = sql();
    const threshold = await thresholdMicro();
    const before = await withdrawalWithApprovals(driver, schema, withdrawalId, threshold);
    if (!before) throw new AdminError(404, 'No such withdrawal');
    if (before.status !== 'sending')
      throw new AdminError(409, `This withdrawal is ${before.status}: only one being sent can be released`);
    if (before.broadcast)
      throw new AdminError(
        409,
        `A signed transaction is recorded for this withdrawal (${before.broadcast.txHash}): it may be on chain, so only the reconciler can release it`,
      );
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: 'withdrawal.release',
      target: `withdrawal:${withdrawalId}`,
      before: { status: 'sending', sendingSince: before.sendingSince, broadcast: null },
      after: { status: 'pending' },
      reason: why,
      ip: ctx.ip,
    });
    // The engine checks again in its unit of work: a hash recorded meanwhile is refused (denied: 409).
    if (!(await engine.operations.releaseUnsentWithdrawal(withdrawalId, note)))
      throw new AdminError(409, 'This withdrawal is no longer being sent');
    return withdrawalWithApprovals(driver, schema, withdrawalId, threshold);
  });

  // -------------------------------------------------------------------------------------------------------
  // Manual deposits

  route('GET', '/api/admin/deposits', 'read', async (_ctx, input) => {
    const filter = parse(schemas.deposits, input);
    const { driver, schema } = sql();
    return listDeposits(driver, schema, filter);
  });

  async function decideDeposit(ctx: RouteContext, input: unknown, credit: boolean): Promise<unknown> {
    const { id: depositId, reason: why } = parse(schemas.decision, input);
    const { driver, schema } = sql();
    const before = await depositById(driver, schema, depositId);
    if (!before) throw new AdminError(404, 'No such deposit');
    if (before.record.source !== 'manual')
      throw new AdminError(409, 'Chain deposits are decided by their confirmations, not by an operator');
    if (before.record.status !== 'pending')
      throw new AdminError(409, `This deposit is ${before.record.status}: it can no longer be decided`);
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: credit ? 'deposit.credit' : 'deposit.reject',
      target: `deposit:${depositId}`,
      before: { status: before.view.status, amount: before.view.amount },
      after: { status: credit ? 'success' : 'rejected' },
      reason: why,
      ip: ctx.ip,
    });
    const done = credit
      ? await engine.operations.creditDeposit(depositId, note)
      : await engine.operations.rejectDeposit(depositId, why, note);
    if (!done) throw new AdminError(409, 'This deposit is no longer pending');
    return (await depositById(driver, schema, depositId))?.view;
  }

  route('POST', '/api/admin/deposits/credit', 'finance', (ctx, input) => decideDeposit(ctx, input, true));
  route('POST', '/api/admin/deposits/reject', 'review', (ctx, input) => decideDeposit(ctx, input, false));

  // -------------------------------------------------------------------------------------------------------
  // Identity checks

  route('GET', '/api/admin/certs', 'review', async (_ctx, input) => {
    const filter = parse(schemas.certs, input);
    const { driver, schema } = sql();
    return listCerts(driver, schema, filter);
  });

  route('POST', '/api/admin/certs/decide', 'review', async (ctx, input) => {
    const { id: certId, passed, reason: why } = parse(schemas.cert, input);
    if (!passed && !why) throw new AdminError(400, 'Invalid request: reason is required to reject');
    const { driver, schema } = sql();
    const before = await certById(driver, schema, certId);
    if (!before) throw new AdminError(404, 'No such identity check');
    if (before.status !== 'review')
      throw new AdminError(409, `This identity check is ${before.status}: it can no longer be decided`);
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: 'cert.decide',
      target: `cert:${certId}`,
      before: { status: before.status },
      after: { status: passed ? 'passed' : 'rejected' },
      reason: why || null,
      ip: ctx.ip,
    });
    if (!(await engine.operations.decideCert(certId, passed, why, note)))
      throw new AdminError(409, 'This identity check is no longer under review');
    return certById(driver, schema, certId);
  });

  // -------------------------------------------------------------------------------------------------------
  // Member uploads: identity documents to the roles that decide identity checks (review), payment proofs to
  // every operator (finance credits the deposit). The bytes, never cached; refusals are envelopes.

  app.get<{ Params: { id: string } }>('/api/admin/uploads/:id', async (request, reply) => {
    try {
      const { driver, schema } = sql();
      const session = await authenticate(driver, schema, request.headers.authorization, now());
      const fileId = request.params.id;
      const file = /^[\w-]{1,64}$/.test(fileId) ? await uploadById(driver, schema, fileId) : undefined;
      if (!file) throw new AdminError(404, 'No such upload');
      const grant: Grant = file.purpose === 'recharge' ? 'read' : 'review';
      if (!(ROLE_GRANTS[grant] as readonly OperatorRole[]).includes(session.operator.role))
        throw new AdminError(403, `The ${session.operator.role} role may not see identity documents`);
      return reply
        .code(200)
        .type(file.type)
        .header('Cache-Control', 'private, no-store')
        .header('Content-Security-Policy', "default-src 'none'")
        .send(Buffer.from(file.data, 'base64'));
    } catch (error) {
      return send(reply, answerError(request, error));
    }
  });

  // -------------------------------------------------------------------------------------------------------
  // Members

  route('GET', '/api/admin/members', 'read', async (_ctx, input) => {
    const filter = parse(schemas.members, input);
    const { driver, schema } = sql();
    return listMembers(driver, schema, filter, now());
  });

  route('GET', '/api/admin/members/detail', 'read', async (_ctx, input) => {
    const { id: memberId } = parse(schemas.byId, input);
    const { driver, schema } = sql();
    const detail = await memberDetail(driver, schema, memberId, now());
    if (!detail) throw new AdminError(404, 'No such member');
    return detail;
  });

  route('POST', '/api/admin/members/lock', 'admin', async (ctx, input) => {
    const { id: memberId, locked, reason: why } = parse(schemas.lock, input);
    const { driver, schema } = sql();
    const before = await memberById(driver, schema, memberId, ctx.now);
    if (!before) throw new AdminError(404, 'No such member');
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: locked ? 'member.lock' : 'member.unlock',
      target: `member:${memberId}`,
      before: { locked: before.locked },
      after: { locked },
      reason: why,
      ip: ctx.ip,
    });
    if (!(await engine.operations.setMemberLocked(memberId, locked, note)))
      throw new AdminError(404, 'No such member');
    return memberById(driver, schema, memberId, ctx.now);
  });

  // -------------------------------------------------------------------------------------------------------
  // Audit log, operators, settings (admin)

  route('GET', '/api/admin/audit', 'admin', async (_ctx, input) => {
    const filter = parse(schemas.audit, input);
    const { driver, schema } = sql();
    return listAudit(driver, schema, filter);
  });

  route('GET', '/api/admin/operators', 'admin', async (_ctx, input) => {
    parse(empty, input);
    const { driver, schema } = sql();
    const { rows } = await driver.query<OperatorRow>(
      `SELECT ${OPERATOR_COLUMNS} FROM ${schema}.operators ORDER BY id`,
    );
    return rows.map(operatorView);
  });

  route('POST', '/api/admin/operators/create', 'admin', async (ctx, input) => {
    const fields = parse(schemas.createOperator, input);
    const { driver, schema } = sql();
    // Hashed before the transaction: no connection is held while the hash runs.
    const operator = await newOperator(fields, options.pbkdf2Iterations, options.hasher);
    const created = await inTransaction(driver, async (c) => {
      const made = await insertOperator(c, schema, operator, ctx.now);
      await audit(c, schema, {
        at: ctx.now,
        operator: ctx.operator,
        action: 'operator.create',
        target: `operator:${made.operator.id}`,
        after: { username: made.operator.username, role: made.operator.role },
        ip: ctx.ip,
      });
      return made;
    });
    return { operator: created.operator, totpSecret: created.totpSecret, otpauthUrl: created.otpauthUrl };
  });

  route('POST', '/api/admin/operators/update', 'admin', async (ctx, input) => {
    const fields = parse(schemas.updateOperator, input);
    const { driver, schema } = sql();
    if (fields.id === ctx.operator.id)
      throw new AdminError(409, 'You cannot change your own role or disable yourself: ask another admin');
    return inTransaction(driver, async (c) => {
      const before = await operatorById(c, schema, fields.id);
      if (!before) throw new AdminError(404, 'No such operator');
      const role = fields.role ?? before.role;
      const disabled = fields.disabled ?? before.disabled;
      const {
        rows: [after],
      } = await c.query<OperatorRow>(
        `UPDATE ${schema}.operators SET role = $2, disabled = $3 WHERE id = $1 RETURNING ${OPERATOR_COLUMNS}`,
        [fields.id, role, disabled],
      );
      // A disabled operator's sessions end at once.
      if (disabled && !before.disabled)
        await c.query(
          `UPDATE ${schema}.operator_sessions SET revoked_at = $2 WHERE operator_id = $1 AND revoked_at IS NULL`,
          [fields.id, ctx.now],
        );
      await audit(c, schema, {
        at: ctx.now,
        operator: ctx.operator,
        action: 'operator.update',
        target: `operator:${fields.id}`,
        before: { role: before.role, disabled: before.disabled },
        after: { role, disabled },
        ip: ctx.ip,
      });
      if (!after) throw new AdminError(404, 'No such operator');
      return operatorView(after);
    });
  });

  // Holdings: what each gateway last reported; a failed or missing report shows the last one, or 0.
  const lastHoldings = new Map<string, { network: string; address: string; amount: bigint; at: number }>();

  route('GET', '/api/admin/solvency', 'read', async (_ctx, input) => {
    parse(empty, input);
    const { driver, schema } = sql();
    const byAccountMicro = await liabilities(driver, schema);
    const owed = [...byAccountMicro.values()].reduce((a, b) => a + b, 0n);
    const holdings: Solvency['holdings'] = [];
    for (const network of ['TRC20', 'ERC20'] as const) {
      const gateway = gateways[network];
      if (gateway?.walletBalance) {
        try {
          const reported = await Promise.race([
            gateway.walletBalance(),
            new Promise<never>((_resolve, reject) =>
              setTimeout(() => reject(new Error('timeout')), 3_000).unref(),
            ),
          ]);
          lastHoldings.set(network, { network, ...reported, at: now() });
        } catch {
          // Keeps the last report (its time says how old it is).
        }
      }
      const last = lastHoldings.get(network);
      holdings.push(
        last
          ? {
              network,
              address: last.address,
              amount: formatAmount(last.amount),
              at: Math.floor(last.at / 1000),
            }
          : { network, address: '', amount: '0', at: null },
      );
    }
    const held = [...lastHoldings.values()].reduce((a, b) => a + b.amount, 0n);
    return {
      liabilities: formatAmount(owed),
      byAccount: Object.fromEntries([...byAccountMicro].map(([k, v]) => [k, formatAmount(v)])),
      holdings,
      holdingsTotal: formatAmount(held),
      surplus: formatAmount(held - owed),
      ratio: owed === 0n ? null : ratio(held, owed),
    } satisfies Solvency;
  });

  route('GET', '/api/admin/settings', 'admin', async (_ctx, input) => {
    parse(empty, input);
    const { driver, schema } = sql();
    return { makerCheckerThreshold: await setting(driver, schema, THRESHOLD_KEY, '10000') };
  });

  route('POST', '/api/admin/settings', 'admin', async (ctx, input) => {
    const fields = parse(schemas.settings, input);
    const value = formatAmount(parseAmountText(fields.makerCheckerThreshold) ?? 0n);
    const { driver, schema } = sql();
    return inTransaction(driver, async (c) => {
      const before = await setting(c, schema, THRESHOLD_KEY, '10000');
      await c.query(
        `INSERT INTO ${schema}.admin_settings (key, value) VALUES ($1, $2) ` +
          `ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [THRESHOLD_KEY, value],
      );
      await audit(c, schema, {
        at: ctx.now,
        operator: ctx.operator,
        action: 'settings.update',
        target: `settings:${THRESHOLD_KEY}`,
        before: { makerCheckerThreshold: before },
        after: { makerCheckerThreshold: value },
        ip: ctx.ip,
      });
      return { makerCheckerThreshold: value };
    });
  });
}

/** held / owed with 4 decimals, rounded down. */
function ratio(held: bigint, owed: bigint): string {
  const scaled = (held * 10_000n) / owed;
  const sign = scaled < 0n ? '-' : '';
  const abs = scaled < 0n ? -scaled : scaled;
  return `${sign}${abs / 10_000n}.${(abs % 10_000n).toString().padStart(4, '0')}`;
}
