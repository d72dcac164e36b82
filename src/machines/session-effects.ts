/**
 * The session machine's default effects, bound to the app's API client and user store. Tests replace them
 * with `.provide()`; screens use the machine as exported.
 */
import { fromPromise } from 'xstate';
import type { BodyOf, PasskeyAnswer } from '../../engine/index';
import { api, ApiError, isApiError, reportError } from '../api';
import { toastStore } from '../state/toast-store';
import { toLocalUser, userStore, type LocalUser } from '../state/user-store';
import { i18next } from '../i18n';

/**
 * A password login (with the second factor's `code` when the server asked for it: a new device of a member
 * with two-factor authentication), or a passwordless one with a passkey's answer (API.md "Member security").
 */
export type Credentials = { username: string; password: string; code?: string } | { passkey: PasskeyAnswer };

/** 6101: the server asks for the second factor; the login form shows its step, no toast. */
const SECOND_FACTOR_REQUIRED = 6101;

/** POST /api/index/register (API.md): the contract's own body type, so a renamed field fails here too. */
export type RegisterForm = BodyOf<'/api/index/register'>;

/** Login answers a JSON string of the user info (SPEC.md §7); a parsed object is accepted too. */
export function parseLoginData(data: unknown): LocalUser {
  let raw = data;
  if (typeof data === 'string') {
    try {
      raw = JSON.parse(data);
    } catch {
      raw = null;
    }
  }
  const user = toLocalUser(raw);
  if (!user || user.token === '') throw new ApiError('EBADRESPONSE', '', data);
  return user;
}

async function login(credentials: Credentials): Promise<LocalUser> {
  if ('passkey' in credentials) {
    return parseLoginData(
      await api.call('/api/security/passkey/login', { answer: credentials.passkey }, { auth: false }),
    );
  }
  try {
    return parseLoginData(await api.call('/api/index/login', credentials, { silent: true }));
  } catch (error) {
    if (isApiError(error) && error.code !== SECOND_FACTOR_REQUIRED) reportError(error);
    throw error;
  }
}

export const sessionEffects = {
  restore: fromPromise<LocalUser | null>(async () => userStore.get()),
  login: fromPromise<LocalUser, Credentials>(({ input }) => login(input)),
  /** Registration answers only `{ id }`, so a member is logged in with the same credentials straight after. */
  register: fromPromise<LocalUser, RegisterForm>(async ({ input }) => {
    await api.call('/api/index/register', input);
    return login({ username: input.username, password: input.password });
  }),
  // Silent: a failed logout changes nothing for the member, the stored state is cleared either way.
  logout: fromPromise<null, LocalUser | null>(() =>
    api.call('/api/index/logout', undefined, { silent: true }),
  ),
};

export const sessionActions = {
  saveUser: (user: LocalUser) => userStore.set(user),
  clearUser: () => userStore.clear(),
  toastLoggedOut: () => void toastStore.show(i18next.t('common.loggedOut'), 'success'),
};
