/**
 * Connects the API client to the user store, i18next, toasts, the session dialog and navigation. The
 * session machine (./session.ts, with XState) is only needed once a call is answered 401, so it loads then
 * (or earlier, when a screen that logs in imports it) and stays off /home's critical path.
 */
import { configureApi } from '../api';
import { presentError, type ErrorPresenter } from '../api/errors';
import { i18next } from '../i18n';
import { popupStore } from '../state/popup-store';
import type * as SessionExports from '../state/session';
import { toastStore } from '../state/toast-store';
import { userStore } from '../state/user-store';
import { PATHS } from '../lib/paths';

type SessionModule = typeof SessionExports;
let sessionModule: SessionModule | null = null;

/** The session module, loaded once; calls made after it loaded run synchronously. */
export function loadSession(): Promise<SessionModule> {
  return import('../state/session').then((module) => (sessionModule = module));
}

function withSession(run: (module: SessionModule) => void): void {
  if (sessionModule) run(sessionModule);
  else void loadSession().then(run);
}

/** How API errors reach the member: toasts, the session dialog, logout to /login (SPEC.md §8). */
export function createPresenter(navigate: (to: string) => void): ErrorPresenter {
  return {
    t: (key: string, params: Record<string, string> = {}) => i18next.t(key, params),
    toast: (text: string, tone: 'error' | 'success') => toastStore.show(text, tone),
    // The session machine owns the state (tokenExpired, then cleared on acknowledgement); the popup store
    // owns the one dialog.
    sessionExpired: () => {
      withSession(({ session }) => session.expired());
      return popupStore.openSessionExpired();
    },
    logout: () => {
      withSession(({ session }) => {
        session.acknowledgeExpired();
        navigate(PATHS.login);
      });
    },
  };
}

export function wireApi(navigate: (to: string) => void): void {
  const presenter = createPresenter(navigate);
  configureApi({
    credentials: () => {
      const user = userStore.get();
      return user ? { id: user.id, token: user.token } : null;
    },
    onError: (error, silent) => void presentError(error.code, error.msg, presenter, silent),
  });
}
