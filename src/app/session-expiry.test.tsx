import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { presentError } from '../api/errors';
import { createPresenter, loadSession } from './api-wiring';
import { renderApp, TEST_USER } from './test-utils';
import { userStore } from '../state/user-store';

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
    // The dialog's component may still be loading (popups are lazy): wait for what the member sees.
    await screen.findByRole('dialog', { name: 'Session expired' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(userStore.get()).not.toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await act(async () => {
      await Promise.all(done);
    });
    expect(userStore.get()).toBeNull();
    expect(localStorage.getItem('strata.user')).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await screen.findByText('You have been logged out', { selector: '.toast-success' });
    expect(document.querySelector('.toaster')?.getAttribute('aria-live')).toBe('polite');
  });

  it('Escape does not skip the acknowledgement: it closes the dialog and still logs out', async () => {
    const { router } = await renderApp('/user', { user: TEST_USER });
    await screen.findByRole('heading', { level: 1, name: 'Assets' });
    const presenter = createPresenter((to) => void router.navigate(to));
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = presentError(401, '', presenter);
    });
    await screen.findByRole('dialog', { name: 'Session expired' });
    await userEvent.keyboard('{Escape}');
    await act(async () => {
      await done;
    });
    expect(userStore.get()).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
