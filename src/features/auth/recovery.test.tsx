import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { userStore } from '../../state/user-store';
import { engineCall, seedMember, SECRETS, sentPaths } from '../../../tests/app/test-engine';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

afterEach(cleanup);

async function type(label: string, value: string) {
  await userEvent.type(screen.getByLabelText(label), value);
}

describe('/forget (login password reset with the secret question)', () => {
  it('says so when the account does not exist (3000)', async () => {
    await renderApp('/forget');
    await userEvent.type(await screen.findByLabelText('Username, e-mail or phone'), 'nobodyhere');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('The account does not exist')).toBeTruthy();
  });

  it('shows the question, checks the new password inline, then resets and goes to /login', async () => {
    await seedMember('forgetful');
    const { router } = await renderApp('/forget');
    await userEvent.type(await screen.findByLabelText('Username, e-mail or phone'), 'forgetful');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(SECRETS.question)).toBeTruthy();

    await type('Secret answer', SECRETS.answer);
    await type('New login password', 'newpass1');
    await type('Repeat the password', 'newpass2');
    sentPaths.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('The two passwords do not match')).toBeTruthy();
    expect(sentPaths).toEqual([]);

    await userEvent.clear(screen.getByLabelText('Repeat the password'));
    await type('Repeat the password', 'newpass1');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    // The new password works.
    const raw = await engineCall('/api/index/login', { username: 'forgetful', password: 'newpass1' });
    expect(JSON.parse(raw)).toMatchObject({ username: 'forgetful' });
  });

  it('a wrong secret answer is refused and nothing changes', async () => {
    await seedMember('wronganswer');
    await renderApp('/forget');
    await userEvent.type(await screen.findByLabelText('Username, e-mail or phone'), 'wronganswer');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText(SECRETS.question);
    await type('Secret answer', 'not it');
    await type('New login password', 'newpass1');
    await type('Repeat the password', 'newpass1');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('The secret answer is wrong', { selector: '.form-error' })).toBeTruthy();
    await expect(
      engineCall('/api/index/login', { username: 'wronganswer', password: SECRETS.password }),
    ).resolves.toBeTypeOf('string');
  });
});

describe('/userforget (security key reset)', () => {
  it('checks the key rules inline, resets the key and ends the session on /login', async () => {
    const member = await seedMember('lostkey');
    const { router } = await renderApp('/userforget', { user: member });
    expect(await screen.findByText(SECRETS.question)).toBeTruthy();
    await type('Login password', SECRETS.password);
    await type('Secret answer', SECRETS.answer);
    await type('New security key', '12');
    await type('Repeat the security key', '99');
    sentPaths.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Reset security key' }));
    expect(screen.getByText('The security key must be at least 4 characters')).toBeTruthy();
    expect(screen.getByText('The two security keys do not match')).toBeTruthy();
    expect(sentPaths).toEqual([]);

    await userEvent.clear(screen.getByLabelText('New security key'));
    await userEvent.clear(screen.getByLabelText('Repeat the security key'));
    await type('New security key', '5678');
    await type('Repeat the security key', '5678');
    await userEvent.click(screen.getByRole('button', { name: 'Reset security key' }));
    await waitFor(() => expect(userStore.get()).toBeNull());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    // The old token was revoked by the reset.
    await expect(engineCall('/api/user/getuser', undefined, member)).rejects.toThrow(/401/);
  });

  it('a wrong login password is refused (2016)', async () => {
    const member = await seedMember('lostkey2');
    await renderApp('/userforget', { user: member });
    await screen.findByText(SECRETS.question);
    await type('Login password', 'wrongpass');
    await type('Secret answer', SECRETS.answer);
    await type('New security key', '5678');
    await type('Repeat the security key', '5678');
    await userEvent.click(screen.getByRole('button', { name: 'Reset security key' }));
    expect(await screen.findByText('Wrong account or password', { selector: '.form-error' })).toBeTruthy();
    expect(userStore.get()?.username).toBe('lostkey2');
  });
});
