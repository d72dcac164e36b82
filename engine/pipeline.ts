/**
 * The steps every call goes through, shared by a direct call (Runtime.handle) and each mutation a device
 * pushes (engine/sync/push.ts), so a queued mutation is judged exactly as the same call made online:
 * resolve (method + path -> handler), decode (JSON -> value), parse (the handler's zod schema) and authorise
 * (the session, for handlers that need one), then run. Each step answers the same codes and messages
 * wherever it runs.
 */
import type { AuthCtx, Ctx } from './context';
import { Codes, fail } from './errors';
import { decodeBody, type AnyHandler, type Router } from './router';
import { describeIssues } from './schema';
import { authenticate } from './security/sessions';

export type Refusal = { ok: false; code: number; msg: string };

export type Resolved = { ok: true; handler: AnyHandler; params: Readonly<Record<string, string>> };

/** Resolve: method + path -> the handler and its path params, or the 404 the router answers. */
export function resolve(router: Router, method: unknown, path: unknown): Resolved | Refusal {
  return router.resolve(String(method ?? ''), String(path ?? ''));
}

/** Decode and parse: the body as the handler's schema accepts it, or a 400 with a readable reason. */
export function parseBody(handler: AnyHandler, body: unknown): { ok: true; input: unknown } | Refusal {
  const decoded = decodeBody(body, handler.raw);
  if (!decoded.ok) return { ok: false, code: 400, msg: decoded.msg };
  const parsed = handler.schema.safeParse(decoded.value);
  if (!parsed.success)
    return { ok: false, code: 400, msg: `Invalid request: ${describeIssues(parsed.error)}` };
  return { ok: true, input: parsed.data };
}

/** Authorise: the member's session joined to the context when the handler needs one; else a 401 (thrown). */
export async function authorise(handler: AnyHandler, ctx: Ctx): Promise<Ctx | AuthCtx> {
  if (!handler.auth) return ctx;
  const session = await authenticate(ctx.tx, ctx.headers, ctx.now);
  if (!session) throw fail(Codes.unauthorized, 'Your session has expired: please log in again');
  return { ...ctx, ...session };
}
