/**
 * The console's one way to the server: a typed call per operator route (contract/admin/routes.ts). The
 * operator's token lives in sessionStorage (gone when the tab closes, never shared with the member app's
 * localStorage); a 401 ends the session and sends the operator back to the login screen. Every refusal
 * becomes an AdminApiError carrying the server's own `msg`, which the screens show as it is.
 */
import type { Operator } from '../../contract/admin/model';
import type { AdminData, AdminParams, AdminRoute } from '../../contract/admin/routes';
import { apiBase } from '../api/config';

/** Client-side codes for calls that never got an envelope. */
export const NETWORK_ERROR = -1;

export class AdminApiError extends Error {
  constructor(
    readonly code: number,
    /** The server's message, empty when the server never answered. */
    readonly msg: string,
  ) {
    super(msg || `Request failed (${code})`);
    this.name = 'AdminApiError';
  }
}

export const TOKEN_KEY = 'strata.admin.token';
export const OPERATOR_KEY = 'strata.admin.operator';

function session(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function readToken(): string | null {
  return session()?.getItem(TOKEN_KEY) ?? null;
}

export function readStoredOperator(): Operator | null {
  try {
    const raw = session()?.getItem(OPERATOR_KEY);
    return raw ? (JSON.parse(raw) as Operator) : null;
  } catch {
    return null;
  }
}

export function saveSession(token: string, operator: Operator): void {
  session()?.setItem(TOKEN_KEY, token);
  session()?.setItem(OPERATOR_KEY, JSON.stringify(operator));
}

export function clearSession(): void {
  session()?.removeItem(TOKEN_KEY);
  session()?.removeItem(OPERATOR_KEY);
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when any call answers 401 (the session expired or was ended elsewhere). */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function toQuery(params: object): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number';
}

/** One operator route: GET sends its parameters as a query string, POST as a JSON body. */
export async function adminCall<R extends AdminRoute>(
  route: R,
  params: AdminParams<R>,
  options: { signal?: AbortSignal } = {},
): Promise<AdminData<R>> {
  const [method, path] = route.split(' ') as ['GET' | 'POST', string];
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readToken();
  if (token) headers['Authorization'] = `Bearer ${token}`;
  let url = `${apiBase()}${path}`;
  let body: string | undefined;
  if (method === 'GET') url += toQuery(params);
  else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(params);
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, signal: options.signal });
  } catch {
    throw new AdminApiError(NETWORK_ERROR, '');
  }
  const parsed: unknown = await response.json().catch(() => null);
  const envelope: Envelope = isEnvelope(parsed)
    ? parsed
    : { code: response.ok ? 500 : response.status, msg: '', data: null };
  if (envelope.code === 0) return envelope.data as AdminData<R>;
  if (envelope.code === 401 && route !== 'POST /api/admin/login') {
    clearSession();
    for (const listener of [...unauthorizedListeners]) listener();
  }
  throw new AdminApiError(envelope.code, typeof envelope.msg === 'string' ? envelope.msg : '');
}

/** Every row of a paged list under the current filter (for CSV export), at most `maxRows`. */
export async function fetchAllPages<R extends AdminRoute, T>(
  route: R,
  params: AdminParams<R>,
  rowsOf: (data: AdminData<R>) => { list: T[]; total: number },
  maxRows = 10_000,
): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; rows.length < maxRows; page++) {
    const data = await adminCall(route, { ...params, page, limit: 100 } as AdminParams<R>);
    const { list, total } = rowsOf(data);
    rows.push(...list);
    if (list.length === 0 || rows.length >= total) break;
  }
  return rows.slice(0, maxRows);
}

/**
 * Images operators may see (payment proofs, identity documents): the operator route's URLs the queues
 * answer (`/api/admin/uploads/<id>`), fetched with the operator's token and shown from a blob: URL (revoked
 * when the image goes away), so no cache or service worker keeps a copy. A refusal (401, 403, 404) arrives
 * as the envelope and becomes an AdminApiError like any call's.
 */
export async function fetchImage(url: string, signal?: AbortSignal): Promise<Blob> {
  const absolute = /^(https?:|blob:|data:)/.test(url)
    ? url
    : `${apiBase()}${url.startsWith('/') ? '' : '/'}${url}`;
  const token = readToken();
  const response = await fetch(absolute, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal,
  }).catch(() => {
    throw new AdminApiError(NETWORK_ERROR, '');
  });
  // The operator route answers a refusal as the envelope (HTTP 200, JSON), an image as its bytes.
  let code = response.ok ? 0 : response.status;
  let msg = '';
  if (response.ok && /^application\/json\b/i.test(response.headers.get('Content-Type') ?? '')) {
    const parsed: unknown = await response.json().catch(() => null);
    code = isEnvelope(parsed) && parsed.code !== 0 ? parsed.code : 500;
    msg = isEnvelope(parsed) && typeof parsed.msg === 'string' ? parsed.msg : '';
  }
  if (code === 401) {
    clearSession();
    for (const listener of [...unauthorizedListeners]) listener();
  }
  if (code !== 0) throw new AdminApiError(code, msg);
  return response.blob();
}
