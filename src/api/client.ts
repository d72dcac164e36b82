/**
 * The one API client (SPEC.md §7): 12 s timeout, Authorization and UserId headers unless the call opts out,
 * success on code 0 or 200 returns `data`, anything else rejects with an ApiError after it is presented.
 * Typed from the engine's ContractMap only: a path must be in the contract, its body is the path's body and
 * the promise resolves to the path's data, so a renamed field fails the type check here as in the engine.
 */
import type { BodyOf, ContractPath, DataOf } from '../../engine/index';
import { ApiError } from './api-error';
import { HTTP_TIMEOUT_MS } from './config';
import { CLIENT_CODES, type Transport, type TransportResponse } from './transport';

export interface CallOptions {
  /** false for register, login, captcha, site config and the forgot flows (API.md "Envelope"). */
  auth?: boolean;
  /** No toast for this call's error (401 still ends the session). */
  silent?: boolean;
  method?: 'GET' | 'POST';
  timeoutMs?: number;
}

export interface Credentials {
  id: string;
  token: string;
}

export interface ClientDeps {
  transport: () => Transport | Promise<Transport>;
  credentials: () => Credentials | null;
  /** Called for every failure before the promise rejects. */
  onError: (error: ApiError, silent: boolean) => void;
  /** Called after every successful call with its path (the app pulls its replica after a write). */
  onAnswer?: (path: string) => void;
  timeoutMs?: number;
  /** This device's id, sent as X-Device-Id (src/api/device-id.ts); absent in tests that do not care. */
  deviceId?: () => string;
}

/** The calls API.md lists as GET; everything else is POST. */
const GET_PATHS = new Set(['/index/index/verify', '/api/site/getsite']);
/** Calls that never carry the member's credentials. */
export const NO_AUTH_PATHS = new Set([
  '/index/index/verify',
  '/api/site/getsite',
  '/api/index/register',
  '/api/index/login',
  '/api/index/question',
  '/api/index/forget',
  '/api/index/forgetKey',
]);

function isEnvelope(body: unknown): body is { code: number; msg?: unknown; data?: unknown } {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number';
}

/** SPEC.md §8: the code is the body's code field, else the HTTP status. */
export function unwrap(response: TransportResponse): unknown {
  const { status, body } = response;
  if (isEnvelope(body)) {
    if (body.code === 0 || body.code === 200) return body.data;
    throw new ApiError(body.code, typeof body.msg === 'string' ? body.msg : '', body.data ?? null);
  }
  throw new ApiError(status === 200 ? 'EBADRESPONSE' : status, '', null);
}

export interface ApiClient {
  call<P extends ContractPath>(path: P, body?: BodyOf<P>, options?: CallOptions): Promise<DataOf<P>>;
}

export function createClient(deps: ClientDeps): ApiClient {
  async function call(path: string, body?: unknown, options: CallOptions = {}): Promise<unknown> {
    const auth = options.auth ?? !NO_AUTH_PATHS.has(path);
    const headers: Record<string, string> = {};
    const device = deps.deviceId?.();
    if (device) headers['X-Device-Id'] = device;
    const creds = auth ? deps.credentials() : null;
    if (creds) {
      headers.Authorization = creds.token;
      headers.UserId = creds.id;
    }
    const method = options.method ?? (GET_PATHS.has(path) ? 'GET' : 'POST');
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? deps.timeoutMs ?? HTTP_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Promise.race as well as abort: the in-process transport cannot be aborted mid-call.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ApiError(CLIENT_CODES.timeout, '', null));
      }, timeoutMs);
    });
    try {
      const transport = await deps.transport();
      const response = await Promise.race([
        transport.request({ method, path, headers, body, signal: controller.signal }),
        timeout,
      ]);
      const data = unwrap(response);
      deps.onAnswer?.(path);
      return data;
    } catch (err) {
      const error =
        err instanceof ApiError ? err : new ApiError(CLIENT_CODES.network, '', null, { cause: err });
      deps.onError(error, options.silent ?? false);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
  return { call } as ApiClient;
}
