/**
 * The member's session (SPEC.md §4): restored from the stored user info at start; logged in by register or
 * login; a 401 shows ONE session-expired dialog however many calls fail, and acknowledging it clears the
 * stored state, toasts 'logged out' and lands logged out; logout calls the server, then clears the state
 * even if that call failed.
 * Its interface is documented on `sessionMachine` below.
 */
import { assertEvent, assign, emit, setup } from 'xstate';
import type { LocalUser } from '../state/user-store';
import { toFailure, type Failure } from './failure';
import { sessionActions, sessionEffects, type Credentials, type RegisterForm } from './session-effects';

export type { Credentials, RegisterForm } from './session-effects';

export interface SessionContext {
  user: LocalUser | null;
  error: Failure | null;
}

export type SessionEvent =
  | { type: 'REGISTER'; form: RegisterForm }
  | { type: 'LOGIN'; credentials: Credentials }
  | { type: 'LOGOUT' }
  | { type: 'TOKEN_EXPIRED' }
  | { type: 'ACK_EXPIRED' }
  | { type: 'REFRESHED'; user: Partial<Omit<LocalUser, 'id' | 'token'>> };

export type SessionEmitted =
  { type: 'loggedIn'; user: LocalUser } | { type: 'loggedOut'; reason: 'logout' | 'expired' };

/**
 * Interface (use with @xstate/react's useActorRef / useSelector)
 * - context: `{ user: LocalUser | null, error: Failure | null }` (error: the last failed login/register).
 * - events: REGISTER(form), LOGIN(credentials), LOGOUT, TOKEN_EXPIRED, ACK_EXPIRED, REFRESHED(user: partial
 *   LocalUser from /api/user/getuser).
 * - emitted: `loggedIn` (user), `loggedOut` (reason 'logout' | 'expired'): navigate on these.
 * - actors: restore, login, register, logout (session-effects.ts: the API client and user store).
 * - actions: saveUser, clearUser, toastLoggedOut (same file).
 * The dialog is the `tokenExpired` state itself: render it while `state.matches('tokenExpired')`.
 * Persist snapshots only from settled states: while loggingIn/registering the invoked call's input holds the
 * password.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as SessionEmitted,
  },
  actors: sessionEffects,
  actions: {
    saveUser: ({ context }) => {
      if (context.user) sessionActions.saveUser(context.user);
    },
    clearUser: () => sessionActions.clearUser(),
    toastLoggedOut: () => sessionActions.toastLoggedOut(),
    forget: assign({ user: null, error: null }),
    mergeUser: assign({
      user: ({ context, event }) => {
        assertEvent(event, 'REFRESHED');
        return context.user && { ...context.user, ...event.user };
      },
    }),
    announceLogin: emit(({ context }) => {
      if (!context.user) throw new Error('announceLogin without a user');
      return { type: 'loggedIn' as const, user: context.user };
    }),
  },
}).createMachine({
  id: 'session',
  context: { user: null, error: null },
  initial: 'restoring',
  states: {
    restoring: {
      invoke: {
        id: 'restore',
        src: 'restore',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'loggedIn',
            actions: assign({ user: ({ event }) => event.output }),
          },
          { target: 'loggedOut' },
        ],
        // Unreadable storage is the same as no stored user.
        onError: { target: 'loggedOut' },
      },
    },
    loggedOut: {
      on: {
        LOGIN: { target: 'loggingIn', actions: assign({ error: null }) },
        REGISTER: { target: 'registering', actions: assign({ error: null }) },
      },
    },
    loggingIn: {
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => {
          assertEvent(event, 'LOGIN');
          return event.credentials;
        },
        onDone: {
          target: 'loggedIn',
          actions: [assign({ user: ({ event }) => event.output }), 'saveUser', 'announceLogin'],
        },
        onError: { target: 'loggedOut', actions: assign({ error: ({ event }) => toFailure(event.error) }) },
      },
    },
    registering: {
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ event }) => {
          assertEvent(event, 'REGISTER');
          return event.form;
        },
        onDone: {
          target: 'loggedIn',
          actions: [assign({ user: ({ event }) => event.output }), 'saveUser', 'announceLogin'],
        },
        onError: { target: 'loggedOut', actions: assign({ error: ({ event }) => toFailure(event.error) }) },
      },
    },
    loggedIn: {
      on: {
        LOGOUT: 'loggingOut',
        TOKEN_EXPIRED: 'tokenExpired',
        REFRESHED: { actions: ['mergeUser', 'saveUser'] },
      },
    },
    // Further TOKEN_EXPIRED events (other calls failing with 401) are not handled here: one dialog only.
    tokenExpired: {
      on: {
        ACK_EXPIRED: {
          target: 'loggedOut',
          actions: ['forget', 'clearUser', 'toastLoggedOut', emit({ type: 'loggedOut', reason: 'expired' })],
        },
      },
    },
    loggingOut: {
      invoke: {
        id: 'logout',
        src: 'logout',
        input: ({ context }) => context.user,
        onDone: {
          target: 'loggedOut',
          actions: ['forget', 'clearUser', 'toastLoggedOut', emit({ type: 'loggedOut', reason: 'logout' })],
        },
        onError: {
          target: 'loggedOut',
          actions: ['forget', 'clearUser', 'toastLoggedOut', emit({ type: 'loggedOut', reason: 'logout' })],
        },
      },
    },
  },
});
