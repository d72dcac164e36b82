import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { userStore } from '../../state/user-store';
import { seedMember, sentPaths } from '../../../tests/app/test-engine';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

afterEach(cleanup);

async function demoCode(): Promise<string> {
  const hint = await screen.findByText(/^Demo code: \d{4}$/);
  return hint.textContent?.replace('Demo code: ', '') ?? '';
}

async function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(label);
    await userEvent.clear(input);
    if (value) await userEvent.type(input, value);
  }
  await userEvent.tab();
}

const VALID = {
  Username: 'newbie1',
  'E-mail': 'newbie1@example.test',
  'Login password': 'secret1',
  'Repeat the password': 'secret1',
  'Security key': '1234',
  'Repeat the security key': '1234',
  'Secret answer': 'Oak school',
};

function errorOf(label: string): string | null {
  const input = screen.getByLabelText(label);
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return document.getElementById(ids[ids.length - 1] ?? '')?.textContent ?? null;
}

describe('/register (SPEC.md §5 rules inline before sending)', () => {
  it('shows each broken rule under its field and sends nothing', async () => {
    await renderApp('/register');
    await demoCode();
    sentPaths.length = 0;
    await fill({
      Username: 'bad name!',
      'Login password': '123',
      'Repeat the password': '124',
      'Security key': '12',
      'Repeat the security key': '13',
      'E-mail': 'not-an-email',
      Phone: '12ab',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(errorOf('Username')).toBe('The username may contain only letters and digits');
    expect(errorOf('Login password')).toBe('The password must be at least 6 characters');
    expect(errorOf('Repeat the password')).toBe('The two passwords do not match');
    expect(errorOf('Security key')).toBe('The security key must be at least 4 characters');
    expect(errorOf('Repeat the security key')).toBe('The two security keys do not match');
    expect(errorOf('E-mail')).toBe('The e-mail address is not valid');
    expect(errorOf('Phone')).toBe('The phone number is not valid');
    expect(errorOf('Secret answer')).toBe('Please enter the secret answer');
    expect(errorOf('Verification code')).toBe('Please enter the verification code');
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
    expect(sentPaths).toEqual([]);
  });

  it('asks for an e-mail or a phone, and a username of at most 25 characters', async () => {
    await renderApp('/register');
    await demoCode();
    await fill({ Username: 'a'.repeat(26) });
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    // The field stops at 25 characters, so the 26th never arrives.
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('a'.repeat(25));
    expect(errorOf('Username')).toBeNull();
    expect(errorOf('E-mail')).toBe('Enter an e-mail address or a phone number');
    expect(errorOf('Phone')).toBe('Enter an e-mail address or a phone number');
    await fill({ Phone: '+15550100' });
    expect(errorOf('E-mail')).toBeNull();
  });

  it('refreshes the captcha image on request', async () => {
    await renderApp('/register');
    const first = await demoCode();
    const image = screen.getByRole('img', { name: 'Verification code image' });
    const src = image.getAttribute('src');
    await userEvent.click(screen.getByRole('button', { name: 'Show a new verification code' }));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Verification code image' }).getAttribute('src')).not.toBe(src),
    );
    expect(sentPaths.filter((p) => p === '/index/index/verify').length).toBeGreaterThanOrEqual(2);
    expect(first).toMatch(/^\d{4}$/);
  });

  it('registers with the demo code, logs the member in and leaves /register', async () => {
    const { router } = await renderApp('/register');
    const code = await demoCode();
    await fill({ ...VALID, 'Verification code': code });
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(userStore.get()?.username).toBe('newbie1');
    expect(userStore.get()?.vip).toBe('vip0');
  });

  it('a taken username (214) is shown on the username field and a fresh captcha is fetched', async () => {
    await seedMember('takenname');
    await renderApp('/register');
    const code = await demoCode();
    await fill({
      ...VALID,
      Username: 'takenname',
      'E-mail': 'other@example.test',
      'Verification code': code,
    });
    const before = sentPaths.filter((p) => p === '/index/index/verify').length;
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(errorOf('Username')).toBe('This username is already registered'));
    expect(userStore.get()).toBeNull();
    await waitFor(() =>
      expect(sentPaths.filter((p) => p === '/index/index/verify').length).toBeGreaterThan(before),
    );
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('');
  });

  it('a wrong verification code (2013) is shown on the code field', async () => {
    await renderApp('/register');
    const code = await demoCode();
    const wrong = code === '0000' ? '1111' : '0000';
    await fill({ ...VALID, Username: 'wrongcode', 'E-mail': 'wc@example.test', 'Verification code': wrong });
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(errorOf('Verification code')).toBe('The verification code is wrong'));
  });

  it('a logged-in member is told so, and can log out to register another account', async () => {
    const member = await seedMember('alreadyin');
    await renderApp('/register', { user: member });
    expect(await screen.findByText('You are logged in as alreadyin.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign up' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Log out to create another account' }));
    await waitFor(() => expect(userStore.get()).toBeNull());
    expect(await screen.findByRole('button', { name: 'Sign up' })).toBeTruthy();
  });

  it('takes the invitation code from the invite link', async () => {
    await renderApp('/register?invite=ABCD2345');
    expect(((await screen.findByLabelText('Invitation code (optional)')) as HTMLInputElement).value).toBe(
      'ABCD2345',
    );
  });
});
