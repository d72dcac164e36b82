/** Withdrawals: the queue, approval (services/withdrawal-approval.ts), rejection, release of a stuck send. */
import type { FastifyInstance } from 'fastify';
import { AdminError, auditNote, makerCheckerThreshold } from '../db';
import { listWithdrawals, withdrawalWithApprovals } from '../queries/withdrawals';
import { adminRoute, type AdminOptions } from '../route';
import { approveWithdrawal } from '../services/withdrawal-approval';

export async function withdrawalRoutes(app: FastifyInstance, options: AdminOptions): Promise<void> {
  const { engine, gateways } = options;

  adminRoute(app, 'GET /api/admin/withdrawals', async ({ sql }, filter) =>
    listWithdrawals(sql.driver, sql.schema, filter, await makerCheckerThreshold(sql.driver, sql.schema)),
  );

  adminRoute(app, 'POST /api/admin/withdrawals/approve', async (ctx, { id }) => {
    const thresholdMicro = await makerCheckerThreshold(ctx.sql.driver, ctx.sql.schema);
    const after = await approveWithdrawal({ engine, sql: ctx.sql, gateways, thresholdMicro }, ctx, id);
    if (!after) throw new AdminError(404, 'No such withdrawal');
    return after;
  });

  adminRoute(app, 'POST /api/admin/withdrawals/reject', async (ctx, { id, reason }) => {
    const { driver, schema } = ctx.sql;
    const threshold = await makerCheckerThreshold(driver, schema);
    const before = await withdrawalWithApprovals(driver, schema, id, threshold);
    if (!before) throw new AdminError(404, 'No such withdrawal');
    if (before.status !== 'pending')
      throw new AdminError(409, `This withdrawal is ${before.status}: it can no longer be rejected`);
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: 'withdrawal.reject',
      target: `withdrawal:${id}`,
      before: { status: before.status, amount: before.amount },
      after: { status: 'rejected' },
      reason,
      ip: ctx.ip,
    });
    if (!(await engine.operations.rejectWithdrawal(id, reason, note)))
      throw new AdminError(409, 'This withdrawal is no longer pending');
    return found(await withdrawalWithApprovals(driver, schema, id, threshold));
  });

  // A withdrawal stuck "sending" with no recorded broadcast (the process stopped between the claim and the
  // signature) back to review. With a recorded hash it may be on chain: only the reconciler decides (409).
  adminRoute(app, 'POST /api/admin/withdrawals/release', async (ctx, { id, reason }) => {
    const { driver, schema } = ctx.sql;
    const threshold = await makerCheckerThreshold(driver, schema);
    const before = await withdrawalWithApprovals(driver, schema, id, threshold);
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
      target: `withdrawal:${id}`,
      before: { status: 'sending', sendingSince: before.sendingSince, broadcast: null },
      after: { status: 'pending' },
      reason,
      ip: ctx.ip,
    });
    // The engine checks again in its unit of work: a hash recorded meanwhile is refused (denied: 409).
    if (!(await engine.operations.releaseUnsentWithdrawal(id, note)))
      throw new AdminError(409, 'This withdrawal is no longer being sent');
    return found(await withdrawalWithApprovals(driver, schema, id, threshold));
  });
}

function found<T>(record: T | undefined): T {
  if (record === undefined) throw new AdminError(404, 'No such withdrawal');
  return record;
}
