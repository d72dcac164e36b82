/** What every failed call rejects with: the envelope's code and msg, or a client code when nothing answered. */
export class ApiError extends Error {
  readonly code: number | string;
  readonly msg: string;
  readonly data: unknown;

  constructor(code: number | string, msg: string, data: unknown, options?: { cause?: unknown }) {
    super(msg || `[${code}]`, options);
    this.name = 'ApiError';
    this.code = code;
    this.msg = msg;
    this.data = data;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
