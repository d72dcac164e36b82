/** The audit log (admin): newest first, by operator and action. */
import type { FastifyInstance } from 'fastify';
import { listAudit } from '../queries/audit';
import { adminRoute } from '../route';

export async function auditRoutes(app: FastifyInstance): Promise<void> {
  adminRoute(app, 'GET /api/admin/audit', async ({ sql }, filter) =>
    listAudit(sql.driver, sql.schema, filter),
  );
}
