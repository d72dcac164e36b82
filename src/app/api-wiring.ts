/** Connects the API client to the user store, i18next, toasts, the session dialog and navigation. */
import { configureApi } from '../api';
import { presentError, type ErrorPresenter } from '../api/errors';
import { i18next } from '../i18n';
import { popupStore } from './popup-store';
import { session } from './session';
import { toastStore } from './toast-store';
import { userStore } from './user-store';

/** How API errors reach the member: toasts, the session dialog, logout to /login (SPEC.md §8). */
export function createPresenter(navigate: (to: string) => void): ErrorPresenter {
  return {
    t: (key: string, params: Record<string, string> = {}) => i18next.t(key, params),
    toast: (text: string, tone: 'error' | 'success') => toastStore.show(text, tone),
    // The session machine owns the state (tokenExpired, then cleared on acknowledgement); the popup store
    // owns the one dialog.
    sessionExpired: () => {
      session.expired();
      return popupStore.openSessionExpired();
    },
    logout: () => {
      session.acknowledgeExpired();
      navigate('/login');
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
