/**
 * Handlers and dispatch. A domain declares each call with `handler({ method, auth, body, run })`; the router
 * matches method + path, decodes and validates the body with zod, resolves the session when `auth` is set,
 * and turns every outcome into the API.md envelope. It never throws.
 *
 * Decisions (docs/DECISIONS.md "Engine core"): paths match case-insensitively, ignoring a query string and a
 * trailing slash; an unknown path answers 404; a known path with the wrong method also answers 404 (no
 * resource answers that method there); malformed JSON and schema failures answer 400 with a clear msg.
 */
import { z } from 'zod';
import type { AuthCtx, Ctx } from './context';
import type { BodyOf, ContractPath, DataOf } from './contract';
import { emptyBody } from './schema';
import type { Tx } from './store/tx';

export type HandlerMethod = 'GET' | 'POST';

/** A success answer with a code other than 0, e.g. a withdrawal's 911; the unit of work still commits. */
export class Reply<D = unknown> {
  constructor(
    readonly code: number,
    readonly data: D,
    readonly msg: string,
  ) {}
}

export function reply<D>(code: number, data: D, msg: string): Reply<D> {
  return new Reply(code, data, msg);
}

/**
 * One declared call. `Data` is what `run` answers and `In` the body its schema accepts; they exist only for
 * the type checker (the `types` witness is never set), so a handler registered for a contract path must
 * answer that path's data and accept that path's body (see ContractHandlers).
 */
export interface Handler<Data = unknown, In = never> {
  method: HandlerMethod;
  auth: boolean;
  /** Multipart handlers get the raw body (a FormData-like object) instead of parsed JSON. */
  raw: boolean;
  schema: z.ZodType;
  run(ctx: Ctx, body: unknown, params: Readonly<Record<string, string>>): Promise<unknown>;
  /**
   * Optional: reads `run` will need that do not depend on the session, issued while the session is checked
   * (on SQL: in the same round trip). What it reads lands in the unit's reads; nothing else is kept.
   * `claimed` is the member the request's UserId header names ('' without one), not yet authenticated: rows
   * keyed by it may be read ahead, and count only once the session is found to name that member.
   */
  prefetch?(tx: Tx, body: unknown, claimed: string): Promise<unknown>;
  readonly types?: { data: () => Data; body: (input: In) => void };
}

/** Any handler, whatever its contract types: what the router and sync's push dispatch to. */
export type AnyHandler = Handler<unknown, never>;

interface SpecBase<S extends z.ZodType> {
  method?: HandlerMethod;
  body?: S;
  raw?: boolean;
  prefetch?(tx: Tx, body: z.output<S>, claimed: string): Promise<unknown>;
}

type Answer<R> = Promise<R | Reply<R>>;

type AuthSpec<S extends z.ZodType, R> = SpecBase<S> & {
  auth: true;
  run(ctx: AuthCtx, body: z.output<S>, params: Readonly<Record<string, string>>): Answer<R>;
};

type OpenSpec<S extends z.ZodType, R> = SpecBase<S> & {
  auth: false;
  run(ctx: Ctx, body: z.output<S>, params: Readonly<Record<string, string>>): Answer<R>;
};

/** Declares one call. `body` defaults to an empty strict object; `method` to POST. */
export function handler<S extends z.ZodType = typeof emptyBody, R = unknown>(
  spec: AuthSpec<S, R> | OpenSpec<S, R>,
): Handler<R, z.input<S>> {
  return {
    method: spec.method ?? 'POST',
    auth: spec.auth,
    raw: spec.raw ?? false,
    schema: spec.body ?? emptyBody,
    run: spec.run as Handler['run'],
    ...(spec.prefetch ? { prefetch: spec.prefetch as NonNullable<Handler['prefetch']> } : {}),
  };
}

/** The body a path's schema must accept: the contract's body, or nothing for a call without one. */
type ContractInput<P extends ContractPath> = BodyOf<P> extends undefined ? never : BodyOf<P>;

/**
 * Contract path -> its handler, typed from ContractMap: the handler for P accepts P's body and answers P's
 * data (or a Reply of it). A renamed or missing field, or a path that is not in the contract, fails the type
 * check (tests/engine/contract-types.ts).
 */
export type ContractHandlers = { [P in ContractPath]?: Handler<DataOf<P>, ContractInput<P>> } & {
  /** An upload served back at the relative url the upload call answered (API.md "uploads"). */
  readonly [path: `/uploads/${string}`]: AnyHandler;
  /** Test harnesses' own calls (never part of the wire contract) live under /test/. */
  readonly [path: `/test/${string}`]: AnyHandler;
};

export type HandlerMap = Readonly<Record<string, AnyHandler>>;

/**
 * One call as an HTTP layer sees it (Engine.diagnostics.routes): its body's JSON Schema is generated from the
 * handler's own zod schema (input side), so a server can refuse a malformed body before the engine with no
 * second copy of the rules. Only the representable part: a transform's input (amounts: any value) and
 * refinements are not in it, and the engine still checks those; lengths are counted in code points (zod
 * counts UTF-16 units), so the schema is never stricter than the engine. `body` is null for raw (multipart)
 * handlers.
 */
export interface RouteDescription {
  path: string;
  method: HandlerMethod;
  auth: boolean;
  raw: boolean;
  body: Record<string, unknown> | null;
}

/** The JSON Schema (draft-07) a body must match before the handler's zod schema can accept it. */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-07' }) as Record<
    string,
    unknown
  >;
  delete json['$schema'];
  return json;
}

interface Route {
  pattern: string;
  segments: string[];
  handler: AnyHandler;
}

export function normalisePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
  return trimmed.toLowerCase();
}

export type Resolution =
  | { ok: true; handler: AnyHandler; params: Record<string, string> }
  | { ok: false; code: number; msg: string };

/** Method + path -> handler. Refuses duplicate paths at construction (ARCHITECTURE.md principle 1). */
export class Router {
  private readonly exact = new Map<string, Route>();
  private readonly patterns: Route[] = [];

  constructor(maps: readonly HandlerMap[]) {
    for (const map of maps) {
      for (const [pattern, handler] of Object.entries(map)) {
        const key = normalisePath(pattern);
        if (this.exact.has(key) || this.patterns.some((r) => normalisePath(r.pattern) === key)) {
          throw new Error(`Duplicate route ${pattern}`);
        }
        const route = { pattern, segments: key.split('/'), handler };
        if (pattern.includes('/:')) this.patterns.push(route);
        else this.exact.set(key, route);
      }
    }
  }

  paths(): string[] {
    return [...this.exact.values(), ...this.patterns].map((r) => r.pattern).sort();
  }

  describe(): RouteDescription[] {
    return [...this.exact.values(), ...this.patterns]
      .sort((a, b) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0))
      .map(({ pattern, handler }) => ({
        path: pattern,
        method: handler.method,
        auth: handler.auth,
        raw: handler.raw,
        body: handler.raw ? null : inputJsonSchema(handler.schema),
      }));
  }

  resolve(method: string, path: string): Resolution {
    if (typeof path !== 'string' || !path.startsWith('/'))
      return { ok: false, code: 404, msg: 'Resource not found' };
    const key = normalisePath(path);
    let route = this.exact.get(key);
    const params: Record<string, string> = {};
    if (!route) {
      const parts = path.split(/[?#]/, 1)[0]?.replace(/\/+$/, '').split('/') ?? [];
      route = this.patterns.find((r) => {
        if (r.segments.length !== parts.length) return false;
        return r.segments.every((seg, i) => seg.startsWith(':') || seg === parts[i]?.toLowerCase());
      });
      if (route) {
        try {
          route.segments.forEach((seg, i) => {
            if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(parts[i] ?? '');
          });
        } catch {
          return { ok: false, code: 404, msg: 'Resource not found' };
        }
      }
    }
    // Never echo a long path back (a 15 KB URL must not come back in the answer).
    if (!route)
      return {
        ok: false,
        code: 404,
        msg: `Resource not found: ${key.length > 80 ? `${key.slice(0, 80)}...` : key}`,
      };
    if (String(method).toUpperCase() !== route.handler.method) {
      return {
        ok: false,
        code: 404,
        msg: `${route.pattern} does not answer ${String(method).toUpperCase()}`,
      };
    }
    return { ok: true, handler: route.handler, params };
  }
}

/** Lower-cases header names and drops non-string values (headers are case-insensitive). */
export function normaliseHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers || typeof headers !== 'object') return out;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof value === 'string') out[name.toLowerCase()] = value;
    else if (typeof value === 'number') out[name.toLowerCase()] = String(value);
  }
  return out;
}

export type Decoded = { ok: true; value: unknown } | { ok: false; msg: string };

/** JSON string or parsed value -> a value for the schema; absent bodies are the empty object. */
export function decodeBody(body: unknown, raw: boolean): Decoded {
  if (raw) return { ok: true, value: body };
  if (body === undefined || body === null || body === '') return { ok: true, value: {} };
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      return { ok: true, value: parsed === null ? {} : parsed };
    } catch {
      return { ok: false, msg: 'Malformed JSON body' };
    }
  }
  if (typeof body === 'object' && !Array.isArray(body)) return { ok: true, value: body };
  return { ok: false, msg: 'The body must be a JSON object' };
}
