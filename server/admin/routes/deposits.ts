/**
 * Manual deposits: the queue; credit (finance) or reject (review), each with a reason. Above the
 * maker-checker threshold a credit needs two different operators, as a withdrawal does (docs/OPERATIONS.md
 * "Maker-checker"): the first credit (the maker) records itself and its audit row and credits nothing; the
 * second (the checker) credits the member, with its approval and audit row in the credit's transaction.
 * Maker or checker is decided under a lock on the deposit's approvals, so two at once are one of each.
 */
import type { FastifyInstance } from 'fastify';
import type { AdminDeposit } from '../../../contract/admin/model';
import type { SqlConnection } from '../../sql-driver';
import {
  AdminError,
  audit,
  auditNote,
  depositAuditNote,
  inTransaction,
  isUniqueViolation,
  makerCheckerThreshold,
  type AuditRecord,
} from '../db';
import { depositById, listDeposits } from '../queries/deposits';
import { adminRoute, type AdminOptions, type OperatorContext } from '../route';

const ALREADY_CREDITED = 'You already credited this deposit: a second operator must credit it';

export async function depositRoutes(app: FastifyInstance, { engine }: AdminOptions): Promise<void> {
  adminRoute(app, 'GET /api/admin/deposits', async ({ sql }, filter) =>
    listDeposits(sql.driver, sql.schema, filter, await makerCheckerThreshold(sql.driver, sql.schema)),
  );

  async function decide(
    ctx: OperatorContext,
    input: { id: string; reason: string },
    credit: boolean,
  ): Promise<AdminDeposit> {
    const { driver, schema } = ctx.sql;
    const threshold = await makerCheckerThreshold(driver, schema);
    const before = await depositById(driver, schema, input.id, threshold);
    if (!before) throw new AdminError(404, 'No such deposit');
    if (before.record.source !== 'manual')
      throw new AdminError(409, 'Chain deposits are decided by their confirmations, not by an operator');
    if (before.record.status !== 'pending')
      throw new AdminError(409, `This deposit is ${before.record.status}: it can no longer be decided`);
    const record = (action: string, after: Record<string, unknown>): AuditRecord => ({
      at: ctx.now,
      operator: ctx.operator,
      action,
      target: `deposit:${input.id}`,
      before: {
        status: before.view.status,
        amount: before.view.amount,
        approvals: before.view.approvals.length,
        needed: before.view.approvalsNeeded,
      },
      after,
      reason: input.reason,
      ip: ctx.ip,
    });
    let done: boolean;
    if (!credit) {
      const note = auditNote(record('deposit.reject', { status: 'rejected' }));
      done = await engine.operations.rejectDeposit(input.id, input.reason, note);
    } else {
      const needed = before.view.approvalsNeeded;
      const approvals = await inTransaction(driver, async (c) => {
        await c.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
          `strata-deposit-approval:${schema}:${input.id}`,
        ]);
        const { rows } = await c.query<{ operator_id: string }>(
          `SELECT operator_id::text AS operator_id FROM ${schema}.deposit_approvals WHERE deposit_id = $1`,
          [input.id],
        );
        if (rows.some((r) => r.operator_id === ctx.operator.id)) throw new AdminError(409, ALREADY_CREDITED);
        if (rows.length + 1 < needed)
          await makerApproval(
            c,
            schema,
            ctx,
            input.id,
            record('deposit.approve', { approvals: rows.length + 1 }),
          );
        return rows.length + 1;
      });
      if (approvals < needed) return found(await depositById(driver, schema, input.id, threshold));
      const note = depositAuditNote(record('deposit.credit', { status: 'success', approvals }), {
        depositId: input.id,
        operatorId: ctx.operator.id,
        at: ctx.now,
      });
      done = await engine.operations.creditDeposit(input.id, note);
    }
    if (!done) throw new AdminError(409, 'This deposit is no longer pending');
    return found(await depositById(driver, schema, input.id, threshold));
  }

  adminRoute(app, 'POST /api/admin/deposits/credit', (ctx, input) => decide(ctx, input, true));
  adminRoute(app, 'POST /api/admin/deposits/reject', (ctx, input) => decide(ctx, input, false));
}

/** The maker's approval row and its audit row (in the caller's transaction); the same operator twice is 409. */
async function makerApproval(
  c: SqlConnection,
  schema: string,
  ctx: OperatorContext,
  depositId: string,
  record: AuditRecord,
): Promise<void> {
  try {
    await c.query('SAVEPOINT approve');
    await c.query(
      `INSERT INTO ${schema}.deposit_approvals (deposit_id, operator_id, at) VALUES ($1, $2, $3)`,
      [depositId, ctx.operator.id, ctx.now],
    );
    await c.query('RELEASE SAVEPOINT approve');
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await c.query('ROLLBACK TO SAVEPOINT approve');
    throw new AdminError(409, ALREADY_CREDITED);
  }
  await audit(c, schema, record);
}

function found(deposit: { view: AdminDeposit } | undefined): AdminDeposit {
  if (!deposit) throw new AdminError(404, 'No such deposit');
  return deposit.view;
}
