/**
 * The operator API (contract/admin/routes.ts, docs/OPERATIONS.md "Operator API") as an encapsulated Fastify
 * plugin: inputs validated by the table's zod schemas (400, nothing changed), the operator session (401) and
 * the role per ROLE_GRANTS (403) checked before validation, one error handler (errors.ts), and one plugin
 * per area under routes/. Answers are the member API's envelope (HTTP 200, `{ code, msg, data }`). Every
 * state-changing action appends one audit row in the same transaction as the change: on the operator tables
 * through inTransaction, and for decisions on money and member records, which go through engine.operations
 * (never by writing the engine's tables), as the decision's commit note (db.ts AuditNote).
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ROLE_GRANTS, type OperatorRole } from '../../contract/admin/model';
import { authenticate } from './auth';
import { AdminError } from './db';
import { adminErrorHandler } from './errors';
import { setContext, type AdminOptions, type AdminRouteConfig } from './route';
import { auditRoutes } from './routes/audit';
import { depositRoutes } from './routes/deposits';
import { identityRoutes } from './routes/identity';
import { marketRoutes } from './routes/market';
import { memberRoutes } from './routes/members';
import { operatorRoutes } from './routes/operators';
import { sessionRoutes } from './routes/sessions';
import { settingsRoutes } from './routes/settings';
import { solvencyRoutes } from './routes/solvency';
import { withdrawalRoutes } from './routes/withdrawals';

export type { AdminOptions } from './route';

/** A zod refusal as the contract words it: the first issue's field and reason. */
function invalidInput(error: z.ZodError): AdminError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || 'request';
  return new AdminError(400, `Invalid request: ${field} ${issue?.message ?? 'is invalid'}`);
}

export async function adminApi(app: FastifyInstance, options: AdminOptions): Promise<void> {
  app.setValidatorCompiler(({ schema }) => (data) => {
    const result = (schema as z.ZodType).safeParse(data ?? {});
    return result.success ? { value: result.data } : { error: invalidInput(result.error) };
  });
  app.setErrorHandler(adminErrorHandler(app.initialConfig.bodyLimit ?? 1024 * 1024));

  // Before validation, as before any work: the SQL storage (503), the session (401) and the role (403).
  app.addHook('preValidation', async (request) => {
    const grant = (request.routeOptions.config as Partial<AdminRouteConfig>).adminGrant;
    if (grant === undefined) return;
    if (!options.sql) throw new AdminError(503, 'The back office needs SQL storage (PostgreSQL or PGlite)');
    const base = {
      sql: options.sql,
      ip: request.ip,
      now: Math.floor(options.clock.now()),
      log: request.log,
    };
    if (grant === 'public') {
      setContext(request, base);
      return;
    }
    const { driver, schema } = options.sql;
    const session = await authenticate(driver, schema, request.headers.authorization, base.now);
    if (
      grant !== 'session' &&
      !(ROLE_GRANTS[grant] as readonly OperatorRole[]).includes(session.operator.role)
    )
      throw new AdminError(403, `The ${session.operator.role} role may not do this`);
    setContext(request, { ...base, ...session });
  });

  for (const area of [
    sessionRoutes,
    withdrawalRoutes,
    depositRoutes,
    identityRoutes,
    memberRoutes,
    operatorRoutes,
    auditRoutes,
    solvencyRoutes,
    marketRoutes,
    settingsRoutes,
  ])
    await app.register(area, options);
}
