/**
 * The security forms of a member with two-factor authentication (docs/SPEC.md §10, RULES.md A24): changing the
 * login password and the security key (/user/changePsw), resetting the password logged out (/forget, asked
 * when the server answers 6101) and resetting the key (/userforget). A member without two-factor sees each form
 * as before; with it the code field appears and the code is sent; a wrong code is shown on the field and
 * changes nothing.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { generate } from 'otplib';
import { renderApp } from '../../app/test-utils';
import { userStore } from '../../state/user-store';
import {
  engineCall,
  seedMember,
  SECRETS,
  sentPaths,
  testClock,
  type SeededMember,
} from '../../../tests/app/test-engine';
import { wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

const CODE = 'Authenticator code';
let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}${Date.now() % 100000}`;

/** The next 30 s step's authenticator code (each code is accepted once). */
function nextCode(secret: string): Promise<string> {
  testClock.advance(30_000);
  return generate({ secret, epoch: Math.floor(testClock.now() / 1000) });
}

async function withTwoFactor(member: SeededMember): Promise<string> {
  const { secret } = await engineCall('/api/security/totp/setup', { password: SECRETS.password }, member);
  await engineCall('/api/security/totp/enable', { code: await nextCode(secret) }, member);
  return secret;
}

async function type(label: string, value: string) {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  await userEvent.type(input, value);
}

function errorOf(label: string): string | null {
  const input = screen.getByLabelText(label);
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return document.getElementById(ids[ids.length - 1] ?? '')?.textContent ?? null;
}

/** Which of the member's passwords the engine takes: a right one asks a new device for the code (6101). */
async function loginAnswer(username: string, password: string): Promise<string> {
  return engineCall('/api/index/login', { username, password }).then(
    () => 'ok',
    (error: Error) => error.message.replace(/^.*: (\d+) .*$/s, '$1'),
  );
}

describe('/user/changePsw with two-factor authentication', () => {
  it('a member without it sees no code field and changes the password as before', async () => {
    const member = await seedMember(unique('pw2off'));
    await renderApp('/user/changePsw', { user: member });
    await screen.findByRole('tab', { name: 'Login password', selected: true });
    expect(screen.queryByLabelText(CODE)).toBeNull();
    await type('Current login password', SECRETS.password);
    await type('New login password', 'newpass9');
    await type('Repeat the password', 'newpass9');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(/^Password changed/, { selector: '.toast' })).toBeTruthy();
    expect(await loginAnswer(member.username, 'newpass9')).toBe('ok');
  });

  it('asks for the code; a wrong one is refused on the field and the password stays; the right one changes it', async () => {
    const member = await seedMember(unique('pw2on'));
    const secret = await withTwoFactor(member);
    await renderApp('/user/changePsw', { user: member });
    const field = await screen.findByLabelText(CODE);
    expect(field).toBeTruthy();
    await type('Current login password', SECRETS.password);
    await type('New login password', 'newpass9');
    await type('Repeat the password', 'newpass9');
    sentPaths.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(errorOf(CODE)).toBe('Enter the code from your authenticator app');
    expect(sentPaths).not.toContain('/api/user/editPsw');

    await type(CODE, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf(CODE)).toBe('The code is wrong'));
    // The old password is still the one: it is right (a new device is asked for the code), the new one wrong.
    expect(await loginAnswer(member.username, SECRETS.password)).toBe('6101');
    expect(await loginAnswer(member.username, 'newpass9')).toBe('2016');

    await type(CODE, await nextCode(secret));
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(/^Password changed/, { selector: '.toast' })).toBeTruthy();
    expect(await loginAnswer(member.username, 'newpass9')).toBe('6101');
    expect(screen.getByLabelText<HTMLInputElement>(CODE).value).toBe('');
  }, 20_000);

  it('the security key tab asks for the code too', async () => {
    const member = await seedMember(unique('key2on'));
    const secret = await withTwoFactor(member);
    await renderApp('/user/changePsw', { user: member });
    await userEvent.click(await screen.findByRole('tab', { name: 'Security key' }));
    await type('Current security key', SECRETS.key);
    await type('New security key', '4321');
    await type('Repeat the security key', '4321');
    await type(CODE, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Change security key' }));
    await waitFor(() => expect(errorOf(CODE)).toBe('The code is wrong'));
    // The key is unchanged: the old key still passes its check (then the code is asked for).
    await expect(
      engineCall('/api/user/edituserPsw', { oldKey: SECRETS.key, key: '5555', rekey: '5555' }, member),
    ).rejects.toThrow(/6101/);

    await type(CODE, await nextCode(secret));
    await userEvent.click(screen.getByRole('button', { name: 'Change security key' }));
    expect(await screen.findByText('Security key changed', { selector: '.toast' })).toBeTruthy();
    await expect(
      engineCall('/api/user/edituserPsw', { oldKey: '4321', key: '5555', rekey: '5555' }, member),
    ).rejects.toThrow(/6101/);
  }, 20_000);
});

describe('/forget with two-factor authentication', () => {
  it('asks for the code when the server does (6101); a wrong code changes nothing; the right one resets', async () => {
    const member = await seedMember(unique('fg2on'));
    const secret = await withTwoFactor(member);
    const { router } = await renderApp('/forget');
    await userEvent.type(await screen.findByLabelText('Username, e-mail or phone'), member.username);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText(SECRETS.question);
    expect(screen.queryByLabelText(CODE)).toBeNull();
    await type('Secret answer', SECRETS.answer);
    await type('New login password', 'newpass1');
    await type('Repeat the password', 'newpass1');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByLabelText(CODE);
    expect(errorOf(CODE)).toBe('Enter the code from your authenticator app');
    expect(document.activeElement).toBe(screen.getByLabelText(CODE));

    await type(CODE, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(errorOf(CODE)).toBe('The code is wrong'));
    expect(await loginAnswer(member.username, 'newpass1')).toBe('2016');

    await type(CODE, await nextCode(secret));
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await loginAnswer(member.username, 'newpass1')).toBe('6101');
  }, 20_000);
});

describe('/userforget with two-factor authentication', () => {
  it('a member without it sees no code field', async () => {
    const member = await seedMember(unique('uf2off'));
    await renderApp('/userforget', { user: member });
    await screen.findByText(SECRETS.question);
    expect(screen.queryByLabelText(CODE)).toBeNull();
  });

  it('shows the code field; a wrong code keeps the key and the session; the right one resets', async () => {
    const member = await seedMember(unique('uf2on'));
    const secret = await withTwoFactor(member);
    const { router } = await renderApp('/userforget', { user: member });
    await screen.findByText(SECRETS.question);
    await screen.findByLabelText(CODE);
    await type('Login password', SECRETS.password);
    await type('Secret answer', SECRETS.answer);
    await type('New security key', '5678');
    await type('Repeat the security key', '5678');
    await type(CODE, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Reset security key' }));
    await waitFor(() => expect(errorOf(CODE)).toBe('The code is wrong'));
    expect(userStore.get()?.username).toBe(member.username);
    await expect(engineCall('/api/user/getuser', undefined, member)).resolves.toBeTruthy();

    await type(CODE, await nextCode(secret));
    await userEvent.click(screen.getByRole('button', { name: 'Reset security key' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await expect(engineCall('/api/user/getuser', undefined, member)).rejects.toThrow(/401/);
  }, 20_000);
});
