/**
 * The app's one session actor (src/machines/session.ts): login, register, logout and a 401 all go through
 * it; the user store stays the persisted copy the route guard reads, written by the machine's own actions.
 * After logging out the route guard decides where to go; after a 401 the error presenter navigates to /login.
 * When the store changes behind the machine's back (another tab, tests), a settled machine that disagrees
 * with it is restarted, so it restores from the store rather than refusing the next LOGIN.
 */
import { useSyncExternalStore } from 'react';
import { useSelector } from '@xstate/react';
import { createActor, waitFor, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { CLIENT_CODES } from '../api/transport';
import type { Failure } from '../machines/failure';
import { requestPersistence } from '../pwa/storage';
import { sessionMachine, type Credentials, type RegisterForm } from '../machines/session';
import { userStore, type LocalUser } from './user-store';

type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

const actorListeners = new Set<() => void>();

function start(): SessionActor {
  const next = createActor(sessionMachine);
  // The member now has data on this device worth keeping from eviction.
  next.on('loggedIn', () => void requestPersistence());
  next.start();
  return next;
}

let actor: SessionActor = start();

function sameUser(a: LocalUser | null, b: LocalUser | null): boolean {
  return (a?.id ?? null) === (b?.id ?? null) && (a?.token ?? null) === (b?.token ?? null);
}

function resync(): void {
  const snapshot = actor.getSnapshot();
  if (!snapshot.matches('loggedIn') && !snapshot.matches('loggedOut')) return;
  if (sameUser(snapshot.context.user, userStore.get())) return;
  actor.stop();
  actor = start();
  for (const listener of actorListeners) listener();
}

userStore.subscribe(resync);

/** A client-side code: LOGIN or REGISTER while a member is logged in on this device. */
export const ALREADY_LOGGED_IN = 'ELOGGEDIN';

async function attempt(
  event: { type: 'LOGIN'; credentials: Credentials } | { type: 'REGISTER'; form: RegisterForm },
): Promise<Failure | null> {
  resync();
  // A freshly (re)started machine is still restoring and would drop the event.
  await waitFor(actor, (s) => !s.matches('restoring'));
  const current = actor;
  // Logged in already (a member on /register): the machine would ignore the event, so say so.
  if (current.getSnapshot().matches('loggedIn')) return { code: ALREADY_LOGGED_IN, msg: '' };
  current.send(event);
  const settled = await waitFor(current, (s) => s.matches('loggedIn') || s.matches('loggedOut'));
  if (settled.matches('loggedIn')) return null;
  return settled.context.error ?? { code: CLIENT_CODES.network, msg: '' };
}

export const session = {
  get actor(): SessionActor {
    return actor;
  },
  /**
   * Logs in and resolves with null on success or the failure (for the form). Where to go next is the
   * route guard's decision (SPEC.md §2: a stored user on /login is sent to /).
   */
  login(credentials: Credentials): Promise<Failure | null> {
    return attempt({ type: 'LOGIN', credentials });
  },
  /** Registers, then logs in with the same credentials (session-effects.ts); as `login` otherwise. */
  register(form: RegisterForm): Promise<Failure | null> {
    return attempt({ type: 'REGISTER', form });
  },
  /**
   * Logs out and clears this member's data on the device (replica, outbox, answers, cursor): the next member
   * signing in here never sees it. Screens confirm first when writes are still waiting (LogoutButton).
   */
  logout(): Promise<void> {
    const id = userStore.get()?.id;
    actor.send({ type: 'LOGOUT' });
    if (!id) return Promise.resolve();
    return import('../sync/app').then(({ forgetMemberData }) => forgetMemberData(id)).catch(() => undefined);
  },
  /** A call answered 401: the machine enters tokenExpired (further 401s are ignored there). */
  expired(): void {
    actor.send({ type: 'TOKEN_EXPIRED' });
  },
  /**
   * The member closed the session-expired dialog. The machine clears the stored user and toasts; when it
   * was not in tokenExpired (a 401 with nobody logged in), the store is cleared directly.
   */
  acknowledgeExpired(): void {
    if (actor.getSnapshot().matches('tokenExpired')) actor.send({ type: 'ACK_EXPIRED' });
    else userStore.clear();
  },
  refreshed(user: Partial<Omit<LocalUser, 'id' | 'token'>>): void {
    actor.send({ type: 'REFRESHED', user });
  },
  /** Tests: a fresh actor restored from the store. */
  restart(): void {
    actor.stop();
    actor = start();
    for (const listener of actorListeners) listener();
  },
};

function subscribeActor(listener: () => void): () => void {
  actorListeners.add(listener);
  return () => actorListeners.delete(listener);
}

/** Selects from the current session actor, following it across restarts. */
export function useSession<T>(select: (snapshot: SessionSnapshot) => T): T {
  const current = useSyncActor();
  return useSelector(current, select);
}

function useSyncActor(): SessionActor {
  return useSyncExternalStore(
    subscribeActor,
    () => actor,
    () => actor,
  );
}
