import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { presentError } from '../api/errors';
import { createPresenter, loadSession } from './api-wiring';
import { renderApp, TEST_USER } from './test-utils';
import { userStore } from './user-store';

afterEach(cleanup);
// The presenter acts on the session synchronously once its lazily loaded module is there.
beforeAll(() => loadSession());

describe('401 (SPEC.md §4 session, §8 catalogue)', () => {
  it('shows one session-expired dialog however many 401s arrive, then clears state, toasts and goes to /login', async () => {
    const { router } = await renderApp('/user/vip', { user: TEST_USER });
    await screen.findByRole('heading', { level: 1, name: 'Membership level' });
    const presenter = createPresenter((to) => void router.navigate(to));
    let done: Promise<void>[] = [];
    act(() => {
      done = [
        presentError(401, '', presenter),
        presentError(401, '', presenter),
        presentError(401, '', presenter, true),
      ];
    });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Session expired' })).toBeTruthy();
    expect(userStore.get()).not.toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await act(async () => {
      await Promise.all(done);
    });
    expect(userStore.get()).toBeNull();
    expect(localStorage.getItem('strata.user')).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const toaster = document.querySelector('.toaster');
    expect(toaster?.getAttribute('aria-live')).toBe('polite');
    expect(toaster?.querySelector('.toast-success')?.textContent).toBe('You have been logged out');
  });

  it('Escape does not skip the acknowledgement: it closes the dialog and still logs out', async () => {
    const { router } = await renderApp('/user', { user: TEST_USER });
    await screen.findByRole('heading', { level: 1, name: 'Assets' });
    const presenter = createPresenter((to) => void router.navigate(to));
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = presentError(401, '', presenter);
    });
    await userEvent.keyboard('{Escape}');
    await act(async () => {
      await done;
    });
    expect(userStore.get()).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
