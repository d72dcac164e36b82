/** Members: the list, one member's detail, locking and unlocking (admin) with a reason. */
import type { FastifyInstance } from 'fastify';
import { AdminError, auditNote } from '../db';
import { listMembers, memberById, memberDetail } from '../queries/members';
import { adminRoute, type AdminOptions } from '../route';

export async function memberRoutes(app: FastifyInstance, { engine }: AdminOptions): Promise<void> {
  adminRoute(app, 'GET /api/admin/members', async ({ sql, now }, filter) =>
    listMembers(sql.driver, sql.schema, filter, now),
  );

  adminRoute(app, 'GET /api/admin/members/detail', async ({ sql, now }, { id }) => {
    const detail = await memberDetail(sql.driver, sql.schema, id, now);
    if (!detail) throw new AdminError(404, 'No such member');
    return detail;
  });

  adminRoute(app, 'POST /api/admin/members/lock', async (ctx, { id, locked, reason }) => {
    const { driver, schema } = ctx.sql;
    const before = await memberById(driver, schema, id, ctx.now);
    if (!before) throw new AdminError(404, 'No such member');
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: locked ? 'member.lock' : 'member.unlock',
      target: `member:${id}`,
      before: { locked: before.locked },
      after: { locked },
      reason,
      ip: ctx.ip,
    });
    if (!(await engine.operations.setMemberLocked(id, locked, note)))
      throw new AdminError(404, 'No such member');
    const after = await memberById(driver, schema, id, ctx.now);
    if (!after) throw new AdminError(404, 'No such member');
    return after;
  });
}
