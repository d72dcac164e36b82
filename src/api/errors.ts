/**
 * The error catalogue of SPEC.md §8 as settled by API.md: what each code shows the member. describeError is
 * pure (tested for every code); presentError turns a description into a toast or the session dialog.
 */
import { CLIENT_CODES } from './transport';

/** Codes whose message comes only from translations (errors.e<code>). */
export const TRANSLATED_CODES = [
  214, 215, 216, 222, 400, 403, 404, 420, 421, 429, 430, 431, 4011, 1998, 1999, 2001, 2002, 2003, 2004, 20041,
  2005, 20051, 2006, 2007, 2008, 2009, 2010, 2013, 2016, 3000, 3001, 3002, 3003, 3004, 3005, 3006, 3007, 3009,
  3010, 4033, 4034, 4035, 4036, 4037, 4038, 4039, 911, 6101, 6102, 6103, 6104, 6105, 6106, 6110, 6111, 6112,
  6113, 6120, 6121, 6122, 6123, 6124, 6125, 6126, 6127, 6141, 6142, 6143, 6201, 6202, 6203, 6204, 6205, 6206,
] as const;

/** Codes that show the server's message when there is one, else errors.e<code>. */
export const SERVER_FIRST_CODES = [500] as const;

/**
 * Codes that are not failures: 911 "withdrawal submitted, awaiting review" is how a withdrawal succeeds. It
 * is shown translated, as a confirmation (success tone), never as a red error.
 */
export const SUCCESS_CODES = [911] as const;

const CLIENT_CODE_KEYS: Record<string, string> = {
  [CLIENT_CODES.timeout]: 'errors.timeout',
  [CLIENT_CODES.network]: 'errors.network',
  [CLIENT_CODES.offline]: 'errors.offline',
  // Some clients report a timeout as -1.
  '-1': 'errors.timeout',
  // The engine's storage is full on this device (engine/errors.ts storageFull): nothing was saved.
  '507': 'pwa.quotaExceeded',
};

export type ErrorDescription =
  /** 401: the one-at-a-time session-expired dialog, then logout. */
  | { kind: 'session' }
  /** A translation key with its interpolation values. */
  | { kind: 'translated'; key: string; params: Record<string, string> }
  /** Text shown exactly as given (a server message or "[code]"). */
  | { kind: 'text'; text: string };

function normaliseCode(code: number | string): number | string {
  if (typeof code === 'number') return code;
  return /^-?\d+$/.test(code) ? Number(code) : code;
}

export function describeError(rawCode: number | string, msg = ''): ErrorDescription {
  const code = normaliseCode(rawCode);
  const serverMsg = msg.trim();
  const fallback: ErrorDescription = { kind: 'text', text: serverMsg || `[${code}]` };
  if (code === 401) return { kind: 'session' };
  if (code === 402) return fallback;
  if (code === 410) return { kind: 'translated', key: 'errors.e410', params: { msg: serverMsg } };
  if ((SERVER_FIRST_CODES as readonly (number | string)[]).includes(code))
    return serverMsg ? fallback : { kind: 'translated', key: `errors.e${code}`, params: {} };
  if ((TRANSLATED_CODES as readonly (number | string)[]).includes(code))
    return { kind: 'translated', key: `errors.e${code}`, params: {} };
  const clientKey = CLIENT_CODE_KEYS[String(code)];
  if (clientKey) return { kind: 'translated', key: clientKey, params: {} };
  return fallback;
}

export type Translate = (key: string, params?: Record<string, string>) => string;

/** The toast text of a non-session description. */
export function errorText(description: ErrorDescription, t: Translate): string {
  switch (description.kind) {
    case 'session':
      return t('errors.sessionExpiredBody');
    case 'translated':
      return t(description.key, description.params);
    case 'text':
      return description.text;
  }
}

export interface ErrorPresenter {
  t: Translate;
  toast(text: string, tone: 'error' | 'success'): void;
  /** Shows the session-expired dialog; resolves when the member closes it, or null if one is already open. */
  sessionExpired(): Promise<void> | null;
  /** Clears the local user state and goes to /login. */
  logout(): void;
}

/** Shows an error the way SPEC.md §8 says. 401 ignores `silent`: the session is over either way. */
export async function presentError(
  code: number | string,
  msg: string,
  presenter: ErrorPresenter,
  silent = false,
): Promise<void> {
  const description = describeError(code, msg);
  if (description.kind === 'session') {
    const closed = presenter.sessionExpired();
    if (!closed) return;
    await closed;
    presenter.logout();
    presenter.toast(presenter.t('common.loggedOut'), 'success');
    return;
  }
  const success = (SUCCESS_CODES as readonly (number | string)[]).includes(normaliseCode(code));
  if (!silent) presenter.toast(errorText(description, presenter.t), success ? 'success' : 'error');
}
