import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { generate } from 'otplib';
import { wireApi } from '../../app/api-wiring';
import { renderApp } from '../../app/test-utils';
import { userStore } from '../../state/user-store';
import { engineCall, seedMember, SECRETS, sentPaths, testClock } from '../../../tests/app/test-engine';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

afterEach(cleanup);
beforeAll(() => wireApi(() => undefined));

/** The code an authenticator app shows now; the clock moves to the next 30 s step first (codes work once). */
async function nextCode(secret: string): Promise<string> {
  testClock.advance(30_000);
  return generate({ secret, epoch: Math.floor(testClock.now() / 1000) });
}

describe('Account and security', () => {
  it('lists Two-factor authentication, which opens /user/twofactor', async () => {
    const member = await seedMember('seclist');
    const { router } = await renderApp('/user/account', { user: member });
    const link = await screen.findByRole('link', { name: 'Two-factor authentication' });
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/twofactor'));
    expect(await screen.findByRole('heading', { name: 'Authenticator app' })).toBeTruthy();
  });
});

describe('/user/twofactor', () => {
  it('enrols: password, QR code and key, a first code, the recovery codes once; then shows it on', async () => {
    const member = await seedMember('enrol2fa');
    await renderApp('/user/twofactor', { user: member });
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor authentication' }));
    // The password first: a wrong one is refused in place and nothing is set up.
    await userEvent.type(screen.getByLabelText('Login password'), 'not-it-1');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Login password'));
    await userEvent.type(screen.getByLabelText('Login password'), SECRETS.password);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('img', { name: 'QR code of your authenticator key' })).toBeTruthy();
    const secret = (screen.getByLabelText('Authenticator key').textContent ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // A code that is not the app's is refused (6102) and two-factor stays off.
    await userEvent.type(screen.getByLabelText('Code from the app'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('The code is wrong', { selector: '.form-error' })).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Code from the app'));
    await userEvent.type(screen.getByLabelText('Code from the app'), await nextCode(secret));
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    const items = within(codes).getAllByRole('listitem');
    expect(items).toHaveLength(10);
    expect(items[0]?.textContent).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){3}$/i);
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('On', { selector: '.badge' })).toBeTruthy();
    expect(await screen.findByText('10')).toBeTruthy();
    const overview = await engineCall('/api/security/overview', undefined, member);
    expect(overview.twoFactor.on).toBe(true);
  });

  it('turns off only with a right code; a wrong one leaves it on', async () => {
    const member = await seedMember('off2fa');
    const setup = await engineCall('/api/security/totp/setup', { password: SECRETS.password }, member);
    await engineCall('/api/security/totp/enable', { code: await nextCode(setup.secret) }, member);
    await renderApp('/user/twofactor', { user: member });
    await userEvent.click(await screen.findByRole('button', { name: 'Turn off two-factor authentication' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Authenticator code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(dialog).findByText('The code is wrong')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('Authenticator code'));
    await userEvent.type(within(dialog).getByLabelText('Authenticator code'), await nextCode(setup.secret));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Turn on two-factor authentication' })).toBeTruthy();
  });
});

describe('/login with two-factor authentication on', () => {
  it('asks this new device for the code, refuses a wrong one, then logs in with the right one', async () => {
    const member = await seedMember('newdevice2fa');
    const setup = await engineCall('/api/security/totp/setup', { password: SECRETS.password }, member);
    await engineCall('/api/security/totp/enable', { code: await nextCode(setup.secret) }, member);
    const { router } = await renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Username, e-mail or phone'), 'newdevice2fa');
    await userEvent.type(screen.getByLabelText('Login password'), SECRETS.password);
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: "Confirm it's you" })).toBeTruthy();
    expect(userStore.get()).toBeNull();

    // The field checks its shape before anything is sent.
    sentPaths.length = 0;
    await userEvent.type(screen.getByLabelText('Authenticator code'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect(screen.getByText('Enter 6 digits, or a recovery code (xxxx-xxxx-xxxx-xxxx)')).toBeTruthy();
    expect(sentPaths).toEqual([]);

    await userEvent.clear(screen.getByLabelText('Authenticator code'));
    await userEvent.type(screen.getByLabelText('Authenticator code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect(await screen.findByText('The code is wrong', { selector: '.form-error' })).toBeTruthy();
    expect(userStore.get()).toBeNull();

    await userEvent.clear(screen.getByLabelText('Authenticator code'));
    await userEvent.type(screen.getByLabelText('Authenticator code'), await nextCode(setup.secret));
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(userStore.get()?.username).toBe('newdevice2fa');
  });

  it('offers "Log in with a passkey" on the login screen', async () => {
    await renderApp('/login');
    expect(await screen.findByRole('button', { name: 'Log in with a passkey' })).toBeTruthy();
  });
});
