import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { presentError } from '../api/errors';
import { i18next, initI18n } from '../i18n';
import { createPresenter, loadSession } from './api-wiring';
import { popupStore } from '../state/popup-store';
import { session } from '../state/session';
import { toastStore } from '../state/toast-store';
import { TEST_USER } from './test-utils';
import { userStore } from '../state/user-store';

vi.mock('../api/transport-worker', () => import('../../tests/app/test-engine'));
vi.mock('../api/engine-transport', () => import('../../tests/app/test-engine'));

beforeAll(async () => {
  if (!i18next.isInitialized) await initI18n('en-US');
  // The presenter acts on the session synchronously once its lazily loaded module is there.
  await loadSession();
});

const settled = () => waitFor(session.actor, (s) => !s.matches('restoring'));

afterEach(() => {
  popupStore.close();
  userStore.clear();
});

describe('the app session actor (SPEC.md §4 session)', () => {
  it('follows the stored user when another tab logs in or out', async () => {
    userStore.clear();
    session.restart();
    await settled();
    expect(session.actor.getSnapshot().value).toBe('loggedOut');
    userStore.set(TEST_USER);
    expect((await settled()).value).toBe('loggedIn');
    userStore.clear();
    expect((await settled()).value).toBe('loggedOut');
  });

  it('a 401 enters tokenExpired once, and closing the dialog clears the user through the machine', async () => {
    userStore.set(TEST_USER);
    await settled();
    const navigate = vi.fn();
    const presenter = createPresenter(navigate);
    const first = presentError(401, '', presenter);
    const second = presentError(401, '', presenter);
    expect(session.actor.getSnapshot().value).toBe('tokenExpired');
    expect(popupStore.get()).toBe('sessionExpired');
    expect(userStore.get()).not.toBeNull();
    popupStore.close();
    await Promise.all([first, second]);
    expect(session.actor.getSnapshot().value).toBe('loggedOut');
    expect(userStore.get()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(toastStore.get().filter((t) => t.text === 'You have been logged out').length).toBeLessThanOrEqual(
      1,
    );
  });

  it('a refused login resolves with the catalogue failure and leaves the member logged out', async () => {
    userStore.clear();
    await settled();
    const failure = await session.login({ username: 'nobody', password: 'whatever1' });
    expect(failure?.code).toBe(2016);
    expect(session.actor.getSnapshot().value).toBe('loggedOut');
  });
});
