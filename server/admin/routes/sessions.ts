/** Operator sessions: log in (password and TOTP, rate-limited per client IP), log out, who am I. */
import type { FastifyInstance } from 'fastify';
import { login } from '../auth';
import { audit, inTransaction, operatorView } from '../db';
import { adminRoute, type AdminOptions } from '../route';

export async function sessionRoutes(app: FastifyInstance, options: AdminOptions): Promise<void> {
  adminRoute(
    app,
    'POST /api/admin/login',
    ({ sql, now, ip }, input) =>
      login(sql.driver, sql.schema, input, {
        nowMs: now,
        ip,
        iterations: options.pbkdf2Iterations,
        hasher: options.hasher,
      }),
    { config: { rateLimit: { max: options.loginPerIpPerMinute, timeWindow: 60_000 } } },
  );

  adminRoute(app, 'POST /api/admin/logout', async (ctx) => {
    const { driver, schema } = ctx.sql;
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

  adminRoute(app, 'GET /api/admin/me', async (ctx) => operatorView(ctx.operator));
}
