import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../api/api-error';
import type { LocalUser } from '../state/user-store';
import { controlled, flush } from '../../tests/app/controlled-actors';
import { machineCoverage } from '../../tests/app/machine-coverage';
import { sessionMachine, type Credentials, type RegisterForm, type SessionEvent } from './session';
import { parseLoginData } from './session-effects';

const ALICE: LocalUser = { id: '7', token: 'tok', username: 'alice', vip: 'vip0', balance: '0' };
const CREDENTIALS: Credentials = { username: 'alice', password: 'secret1' };
const FORM: RegisterForm = {
  ...CREDENTIALS,
  repassword: 'secret1',
  key: '1234',
  rekey: '1234',
  email: 'a@example.test',
  verify: 'abcd',
  verifyKey: 'k',
  question: 'q',
  answer: 'a',
};

function start() {
  const restore = controlled<LocalUser | null>();
  const login = controlled<LocalUser, Credentials>();
  const register = controlled<LocalUser, RegisterForm>();
  const logout = controlled<null, LocalUser | null>();
  const effects = { saved: [] as LocalUser[], cleared: 0, toasts: 0 };
  const machine = sessionMachine.provide({
    actors: { restore: restore.logic, login: login.logic, register: register.logic, logout: logout.logic },
    actions: {
      saveUser: ({ context }) => void (context.user && effects.saved.push(context.user)),
      clearUser: () => void (effects.cleared += 1),
      toastLoggedOut: () => void (effects.toasts += 1),
    },
  });
  const actor = createActor(machine);
  const emitted: string[] = [];
  actor.on('*', (event) =>
    emitted.push(event.type === 'loggedOut' ? `loggedOut:${event.reason}` : event.type),
  );
  actor.start();
  const state = () => actor.getSnapshot().value;
  return { actor, restore, login, register, logout, effects, emitted, state };
}

async function loggedIn() {
  const s = start();
  await s.restore.resolve(ALICE);
  return s;
}

describe('session machine', () => {
  it('restores a stored user as logged in, and nothing stored (or unreadable) as logged out', async () => {
    expect((await loggedIn()).state()).toBe('loggedIn');
    const none = start();
    expect(none.state()).toBe('restoring');
    await none.restore.resolve(null);
    expect(none.state()).toBe('loggedOut');
    const broken = start();
    await broken.restore.reject(new Error('storage blocked'));
    expect(broken.state()).toBe('loggedOut');
  });

  it('logs in: stores the user and announces it', async () => {
    const s = start();
    await s.restore.resolve(null);
    s.actor.send({ type: 'LOGIN', credentials: CREDENTIALS });
    expect(s.state()).toBe('loggingIn');
    expect(s.login.calls).toEqual([CREDENTIALS]);
    await s.login.resolve(ALICE);
    expect(s.state()).toBe('loggedIn');
    expect(s.actor.getSnapshot().context.user).toEqual(ALICE);
    expect(s.effects.saved).toEqual([ALICE]);
    expect(s.emitted).toEqual(['loggedIn']);
  });

  it('a failed login keeps the catalogue code for the form, and the next attempt clears it', async () => {
    const s = start();
    await s.restore.resolve(null);
    s.actor.send({ type: 'LOGIN', credentials: CREDENTIALS });
    await s.login.reject(new ApiError(2016, 'account or password wrong', null));
    expect(s.state()).toBe('loggedOut');
    expect(s.actor.getSnapshot().context.error).toEqual({ code: 2016, msg: 'account or password wrong' });
    s.actor.send({ type: 'LOGIN', credentials: CREDENTIALS });
    expect(s.actor.getSnapshot().context.error).toBeNull();
  });

  it('registers and is then logged in', async () => {
    const s = start();
    await s.restore.resolve(null);
    s.actor.send({ type: 'REGISTER', form: FORM });
    expect(s.register.calls).toEqual([FORM]);
    await s.register.resolve(ALICE);
    expect(s.state()).toBe('loggedIn');
    const failed = start();
    await failed.restore.resolve(null);
    failed.actor.send({ type: 'REGISTER', form: FORM });
    await failed.register.reject(new ApiError(214, '', null));
    expect(failed.actor.getSnapshot().context.error?.code).toBe(214);
  });

  it('shows one session-expired dialog however many 401s arrive; acknowledging clears and toasts once', async () => {
    const s = await loggedIn();
    // Snapshots are reported per event even when nothing changed; count entries into the dialog state.
    const entries: unknown[] = [];
    let last: unknown = s.state();
    s.actor.subscribe((snapshot) => {
      if (snapshot.value !== last) entries.push(snapshot.value);
      last = snapshot.value;
    });
    for (let i = 0; i < 5; i += 1) s.actor.send({ type: 'TOKEN_EXPIRED' });
    expect(s.state()).toBe('tokenExpired');
    expect(entries.filter((v) => v === 'tokenExpired')).toHaveLength(1);
    s.actor.send({ type: 'LOGOUT' });
    expect(s.state()).toBe('tokenExpired');
    s.actor.send({ type: 'ACK_EXPIRED' });
    expect(s.state()).toBe('loggedOut');
    expect(s.actor.getSnapshot().context.user).toBeNull();
    expect(s.effects).toMatchObject({ cleared: 1, toasts: 1 });
    expect(s.emitted).toEqual(['loggedOut:expired']);
    s.actor.send({ type: 'TOKEN_EXPIRED' });
    expect(s.state()).toBe('loggedOut');
  });

  it.each(['succeeds', 'fails'] as const)(
    'logout calls the server and clears the state when it %s',
    async (how) => {
      const s = await loggedIn();
      s.actor.send({ type: 'LOGOUT' });
      expect(s.state()).toBe('loggingOut');
      expect(s.logout.calls).toEqual([ALICE]);
      s.actor.send({ type: 'TOKEN_EXPIRED' });
      if (how === 'succeeds') await s.logout.resolve(null);
      else await s.logout.reject(new ApiError('ERR_NETWORK', '', null));
      expect(s.state()).toBe('loggedOut');
      expect(s.actor.getSnapshot().context.user).toBeNull();
      expect(s.effects).toMatchObject({ cleared: 1, toasts: 1 });
      expect(s.emitted).toEqual(['loggedOut:logout']);
    },
  );

  it('a refreshed profile updates the stored user but never its id or token', async () => {
    const s = await loggedIn();
    s.actor.send({ type: 'REFRESHED', user: { vip: 'vip2', balance: '120.5' } });
    expect(s.actor.getSnapshot().context.user).toEqual({ ...ALICE, vip: 'vip2', balance: '120.5' });
    expect(s.effects.saved.at(-1)).toEqual({ ...ALICE, vip: 'vip2', balance: '120.5' });
  });

  it('reads the login answer, a JSON string of the user info', () => {
    expect(parseLoginData(JSON.stringify({ id: 7, token: 'tok', username: 'alice' }))).toEqual(ALICE);
    expect(() => parseLoginData('{not json')).toThrow(ApiError);
    expect(() => parseLoginData(JSON.stringify({ id: 7 }))).toThrow(ApiError);
  });

  it('round-trips a persisted snapshot', async () => {
    const s = await loggedIn();
    s.actor.send({ type: 'TOKEN_EXPIRED' });
    const persisted = JSON.parse(JSON.stringify(s.actor.getPersistedSnapshot()));
    const restored = createActor(sessionMachine, { snapshot: persisted }).start();
    expect(restored.getSnapshot().value).toBe('tokenExpired');
    expect(restored.getSnapshot().context).toEqual({ user: ALICE, error: null });
    expect(restored.getPersistedSnapshot()).toEqual(persisted);
  });

  const events = (): Array<{ type: string; [field: string]: unknown }> => [
    { type: 'LOGIN', credentials: CREDENTIALS },
    { type: 'REGISTER', form: FORM },
    { type: 'LOGOUT' },
    { type: 'TOKEN_EXPIRED' },
    { type: 'ACK_EXPIRED' },
    { type: 'REFRESHED', user: { vip: 'vip1' } },
    { type: 'xstate.done.actor.restore', output: ALICE },
    { type: 'xstate.done.actor.restore', output: null },
    { type: 'xstate.error.actor.restore', error: new Error('x') },
    ...(['login', 'register', 'logout'] as const).flatMap((id) => [
      { type: `xstate.done.actor.${id}`, output: id === 'logout' ? null : ALICE },
      { type: `xstate.error.actor.${id}`, error: new ApiError(500, '', null) },
    ]),
  ];

  it('generated paths reach every state and transition, and replay on a live actor', async () => {
    const coverage = machineCoverage(sessionMachine, {
      events: () => events() as SessionEvent[],
      serialize: (snapshot) => JSON.stringify(snapshot.value),
    });
    expect(coverage.unvisitedStates).toEqual([]);
    expect(coverage.unvisitedTransitions).toEqual([]);
    for (const path of coverage.paths) {
      const s = start();
      for (const event of path.events as Array<{ type: string; output?: unknown; error?: unknown }>) {
        const [, kind, , id] = event.type.split('.');
        const effect =
          id === undefined
            ? undefined
            : { restore: s.restore, login: s.login, register: s.register, logout: s.logout }[id];
        if (effect && kind === 'done') await effect.resolve(event.output as never);
        else if (effect && kind === 'error') await effect.reject(event.error);
        else s.actor.send(event as SessionEvent);
        await flush();
      }
      expect(JSON.stringify(s.state())).toBe(path.target);
    }
  });

  it('never holds a user while logged out nor loses it while logged in (property)', () => {
    const [initial] = initialTransition(sessionMachine);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...events()), { maxLength: 30 }), (sequence) => {
        let snapshot: AnyMachineSnapshot = initial;
        let dialogs = 0;
        for (const event of sequence) {
          const before = snapshot.value;
          [snapshot] = transition(sessionMachine, snapshot as never, event as SessionEvent);
          if (snapshot.value === 'tokenExpired' && before !== 'tokenExpired') dialogs += 1;
          const { user } = snapshot.context as { user: LocalUser | null };
          if (['loggedIn', 'tokenExpired', 'loggingOut'].includes(snapshot.value as string))
            expect(user).not.toBeNull();
          else expect(user).toBeNull();
          if (before === 'tokenExpired') expect(['tokenExpired', 'loggedOut']).toContain(snapshot.value);
        }
        expect(dialogs).toBeLessThanOrEqual(sequence.filter((e) => e.type === 'ACK_EXPIRED').length + 1);
      }),
      { numRuns: 300 },
    );
  });
});
