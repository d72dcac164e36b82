/** Back-office settings (admin): the maker-checker threshold, audited when it changes. */
import type { FastifyInstance } from 'fastify';
import { formatAmount, parseAmountText } from '../../../engine/server';
import { audit, inTransaction, setting, THRESHOLD_DEFAULT, THRESHOLD_KEY } from '../db';
import { adminRoute } from '../route';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  adminRoute(app, 'GET /api/admin/settings', async ({ sql }) => ({
    makerCheckerThreshold: await setting(sql.driver, sql.schema, THRESHOLD_KEY, THRESHOLD_DEFAULT),
  }));

  adminRoute(app, 'POST /api/admin/settings', async (ctx, fields) => {
    const value = formatAmount(parseAmountText(fields.makerCheckerThreshold) ?? 0n);
    const { driver, schema } = ctx.sql;
    return inTransaction(driver, async (c) => {
      const before = await setting(c, schema, THRESHOLD_KEY, THRESHOLD_DEFAULT);
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
