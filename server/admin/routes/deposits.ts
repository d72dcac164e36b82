/** Manual deposits: the queue; credit (finance) or reject (review), each with a reason. */
import type { FastifyInstance } from 'fastify';
import type { AdminDeposit } from '../../../contract/admin/model';
import { AdminError, auditNote } from '../db';
import { depositById, listDeposits } from '../queries/deposits';
import { adminRoute, type AdminOptions, type OperatorContext } from '../route';

export async function depositRoutes(app: FastifyInstance, { engine }: AdminOptions): Promise<void> {
  adminRoute(app, 'GET /api/admin/deposits', async ({ sql }, filter) =>
    listDeposits(sql.driver, sql.schema, filter),
  );

  async function decide(
    ctx: OperatorContext,
    input: { id: string; reason: string },
    credit: boolean,
  ): Promise<AdminDeposit> {
    const { driver, schema } = ctx.sql;
    const before = await depositById(driver, schema, input.id);
    if (!before) throw new AdminError(404, 'No such deposit');
    if (before.record.source !== 'manual')
      throw new AdminError(409, 'Chain deposits are decided by their confirmations, not by an operator');
    if (before.record.status !== 'pending')
      throw new AdminError(409, `This deposit is ${before.record.status}: it can no longer be decided`);
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: credit ? 'deposit.credit' : 'deposit.reject',
      target: `deposit:${input.id}`,
      before: { status: before.view.status, amount: before.view.amount },
      after: { status: credit ? 'success' : 'rejected' },
      reason: input.reason,
      ip: ctx.ip,
    });
    const done = credit
      ? await engine.operations.creditDeposit(input.id, note)
      : await engine.operations.rejectDeposit(input.id, input.reason, note);
    if (!done) throw new AdminError(409, 'This deposit is no longer pending');
    const after = await depositById(driver, schema, input.id);
    if (!after) throw new AdminError(404, 'No such deposit');
    return after.view;
  }

  adminRoute(app, 'POST /api/admin/deposits/credit', (ctx, input) => decide(ctx, input, true));
  adminRoute(app, 'POST /api/admin/deposits/reject', (ctx, input) => decide(ctx, input, false));
}
