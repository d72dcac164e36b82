import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { userStore } from '../../state/user-store';
import { seedMember, SECRETS, sentPaths } from '../../../tests/app/test-engine';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

afterEach(cleanup);

describe('/login', () => {
  it('checks both fields inline, sends nothing and focuses the first invalid field', async () => {
    await renderApp('/login');
    const submit = await screen.findByRole('button', { name: 'Log in' });
    sentPaths.length = 0;
    await userEvent.click(submit);
    const account = screen.getByLabelText('Username, e-mail or phone');
    expect(account.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Please enter a username')).toBeTruthy();
    expect(screen.getByText('Please enter a password')).toBeTruthy();
    expect(document.activeElement).toBe(account);
    const errorId = account.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe('Please enter a username');
    expect(sentPaths).toEqual([]);
  });

  it('shows a short password under the field on blur (SPEC.md §5: at least 6)', async () => {
    await renderApp('/login');
    const password = await screen.findByLabelText('Login password');
    await userEvent.type(password, '123');
    await userEvent.tab();
    expect(screen.getByText('The password must be at least 6 characters')).toBeTruthy();
  });

  it('a wrong password is refused with the catalogue message (2016) and nobody is stored', async () => {
    await seedMember('loginwrong');
    await renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Username, e-mail or phone'), 'loginwrong');
    await userEvent.type(screen.getByLabelText('Login password'), 'wrongpass');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const alert = await screen.findByText('Wrong account or password', { selector: '.form-error' });
    expect(alert.getAttribute('role')).toBe('alert');
    expect(userStore.get()).toBeNull();
  });

  it('logs in through the session machine, stores the user and the guard sends them on to /home', async () => {
    await seedMember('loginok');
    const { router } = await renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Username, e-mail or phone'), 'loginok');
    await userEvent.type(screen.getByLabelText('Login password'), SECRETS.password);
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(userStore.get()?.username).toBe('loginok');
    expect(userStore.get()?.token).not.toBe('');
  });

  it('toggles the password between hidden and shown', async () => {
    await renderApp('/login');
    const password = await screen.findByLabelText('Login password');
    expect(password.getAttribute('type')).toBe('password');
    const toggle = screen.getByRole('button', { name: 'Show Login password' });
    await userEvent.click(toggle);
    expect(password.getAttribute('type')).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
  });
});
