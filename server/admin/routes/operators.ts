/** Operators (admin): the list, creation (its TOTP secret answered once), role changes and disabling. */
import type { FastifyInstance } from 'fastify';
import { insertOperator, newOperator } from '../auth';
import {
  AdminError,
  audit,
  inTransaction,
  OPERATOR_COLUMNS,
  operatorById,
  operatorView,
  type OperatorRow,
} from '../db';
import { adminRoute, type AdminOptions } from '../route';

export async function operatorRoutes(app: FastifyInstance, options: AdminOptions): Promise<void> {
  adminRoute(app, 'GET /api/admin/operators', async ({ sql }) => {
    const { rows } = await sql.driver.query<OperatorRow>(
      `SELECT ${OPERATOR_COLUMNS} FROM ${sql.schema}.operators ORDER BY id`,
    );
    return rows.map(operatorView);
  });

  adminRoute(app, 'POST /api/admin/operators/create', async (ctx, fields) => {
    const { driver, schema } = ctx.sql;
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

  adminRoute(app, 'POST /api/admin/operators/update', async (ctx, fields) => {
    const { driver, schema } = ctx.sql;
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
}
