/**
 * Identity checks (the queue, a decision) and member uploads: identity documents to the roles that decide
 * identity checks (review), payment proofs to every operator (finance credits the deposit). Uploads are
 * answered as their bytes, never cached; refusals are envelopes.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ROLE_GRANTS, type OperatorRole } from '../../../contract/admin/model';
import { AdminError, auditNote } from '../db';
import { certById, listCerts } from '../queries/certs';
import { uploadChunks } from '../../upload-store';
import { uploadById } from '../queries/uploads';
import { adminRoute, contextOf, type AdminOptions, grantConfig, type OperatorContext } from '../route';

export async function identityRoutes(app: FastifyInstance, { engine }: AdminOptions): Promise<void> {
  adminRoute(app, 'GET /api/admin/certs', async ({ sql }, filter) =>
    listCerts(sql.driver, sql.schema, filter),
  );

  adminRoute(app, 'POST /api/admin/certs/decide', async (ctx, { id, passed, reason }) => {
    if (!passed && !reason) throw new AdminError(400, 'Invalid request: reason is required to reject');
    const { driver, schema } = ctx.sql;
    const before = await certById(driver, schema, id);
    if (!before) throw new AdminError(404, 'No such identity check');
    if (before.status !== 'review')
      throw new AdminError(409, `This identity check is ${before.status}: it can no longer be decided`);
    const note = auditNote({
      at: ctx.now,
      operator: ctx.operator,
      action: 'cert.decide',
      target: `cert:${id}`,
      before: { status: before.status },
      after: { status: passed ? 'passed' : 'rejected' },
      reason: reason || null,
      ip: ctx.ip,
    });
    if (!(await engine.operations.decideCert(id, passed, reason, note)))
      throw new AdminError(409, 'This identity check is no longer under review');
    const after = await certById(driver, schema, id);
    if (!after) throw new AdminError(404, 'No such identity check');
    return after;
  });

  const config = grantConfig('session');
  app.get<{ Params: { id: string } }>('/api/admin/uploads/:id', { config }, async (request, reply) => {
    const ctx = contextOf(request) as OperatorContext;
    const fileId = request.params.id;
    const file = /^[\w-]{1,64}$/.test(fileId)
      ? await uploadById(ctx.sql.driver, ctx.sql.schema, fileId)
      : undefined;
    if (!file) throw new AdminError(404, 'No such upload');
    const grant = file.purpose === 'recharge' ? 'read' : 'review';
    if (!(ROLE_GRANTS[grant] as readonly OperatorRole[]).includes(ctx.operator.role))
      throw new AdminError(403, `The ${ctx.operator.role} role may not see identity documents`);
    return (
      reply
        .code(200)
        .type(file.type)
        .header('Cache-Control', 'private, no-store')
        .header('Content-Security-Policy', "default-src 'none'")
        // Streamed from the upload store chunk by chunk (server/upload-store.ts), or the bytes of the row.
        .send(
          file.stored
            ? Readable.from(uploadChunks(ctx.sql.driver, ctx.sql.schema, file.id))
            : Buffer.from(file.data, 'base64'),
        )
    );
  });
}
