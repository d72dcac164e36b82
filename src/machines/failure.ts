/** The one shape machines keep a failed call in: the catalogue code (SPEC.md §8) and the server's message. */
import { isApiError } from '../api/api-error';
import { CLIENT_CODES } from '../api/transport';

export interface Failure {
  /** A catalogue number (3007, 410, ...) or a client code ('ERR_NETWORK', 'ECONNABORTED', ...). */
  code: number | string;
  msg: string;
}

export function toFailure(error: unknown): Failure {
  if (isApiError(error)) return { code: error.code, msg: error.msg };
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const { code, msg } = error as { code: unknown; msg?: unknown };
    if (typeof code === 'number' || typeof code === 'string')
      return { code, msg: typeof msg === 'string' ? msg : '' };
  }
  return { code: CLIENT_CODES.network, msg: error instanceof Error ? error.message : '' };
}

/** Nothing answered: the call may be retried when the device is back online. */
export function isUnanswered(failure: Failure): boolean {
  return failure.code === CLIENT_CODES.network || failure.code === CLIENT_CODES.offline;
}
