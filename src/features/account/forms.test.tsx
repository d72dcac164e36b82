import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '../../api';
import { wireApi } from '../../app/api-wiring';
import { renderApp } from '../../app/test-utils';
import { userStore } from '../../state/user-store';
import { appSync } from '../../sync/app';
import { appDeviceDb } from '../../sync/device';
import {
  engineCall,
  seedMember,
  SECRETS,
  sentPaths,
  type SeededMember,
} from '../../../tests/app/test-engine';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

afterEach(cleanup);

// As main.tsx does: credentials from the stored user, errors presented, navigation to the current router.
let navigateTo: (to: string) => void = () => undefined;
beforeAll(() => wireApi((to) => navigateTo(to)));

async function render(path: string, user: SeededMember) {
  const view = await renderApp(path, { user });
  navigateTo = (to) => void view.router.navigate(to);
  return view;
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

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('/user/changePsw', () => {
  it('checks the new password inline, refuses a wrong old one on its field, then changes it', async () => {
    const member = await seedMember('changepw');
    await render('/user/changePsw', member);
    await screen.findByRole('tab', { name: 'Login password', selected: true });
    await type('New login password', '123');
    await type('Repeat the password', '124');
    sentPaths.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(errorOf('Current login password')).toBe('Please enter your current password');
    expect(errorOf('New login password')).toBe('The password must be at least 6 characters');
    expect(errorOf('Repeat the password')).toBe('The two passwords do not match');
    expect(sentPaths).toEqual([]);

    await type('Current login password', 'notmypass');
    await type('New login password', 'newpass9');
    await type('Repeat the password', 'newpass9');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf('Current login password')).toBe('The old password is wrong'));

    await type('Current login password', SECRETS.password);
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText('Password changed. Your other devices have been signed out.', {
        selector: '.toast',
      }),
    ).toBeTruthy();
    await expect(
      engineCall('/api/index/login', { username: 'changepw', password: 'newpass9' }),
    ).resolves.toBeTypeOf('string');
  });

  it('changes the security key with the old key (a wrong one is 3007 on its field)', async () => {
    const member = await seedMember('changekey');
    await render('/user/changePsw', member);
    await userEvent.click(await screen.findByRole('tab', { name: 'Security key' }));
    await type('Current security key', '9999');
    await type('New security key', '12');
    await userEvent.click(screen.getByRole('button', { name: 'Change security key' }));
    expect(errorOf('New security key')).toBe('The security key must be at least 4 characters');
    await type('New security key', '4321');
    await type('Repeat the security key', '4321');
    await userEvent.click(screen.getByRole('button', { name: 'Change security key' }));
    await waitFor(() => expect(errorOf('Current security key')).toBe('The security key is wrong'));
    await type('Current security key', SECRETS.key);
    await userEvent.click(screen.getByRole('button', { name: 'Change security key' }));
    expect(await screen.findByText('Security key changed', { selector: '.toast' })).toBeTruthy();
  });
});

describe('/user/bankAdd', () => {
  it('requires the bank name (SPEC.md §5), a card number of 8-30 digits and the holder, then adds the card', async () => {
    const member = await seedMember('bankuser');
    const { router } = await render('/user/bankAdd', member);
    await userEvent.click(await screen.findByRole('button', { name: 'Save card' }));
    expect(errorOf('Bank name')).toBe('Please enter the bank name');
    expect(errorOf('Card number')).toBe('Please enter the card number');
    expect(errorOf('Card holder')).toBe("Please enter the card holder's name");
    await type('Card number', '12 34');
    await userEvent.tab();
    expect(errorOf('Card number')).toBe('A card number has 8 to 30 digits');

    await type('Bank name', 'Demo Bank');
    await type('Card number', '6222 0000 1111 2345');
    await type('Card holder', 'Alice Demo');
    await userEvent.click(screen.getByRole('button', { name: 'Save card' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/bank'));
    expect(await screen.findByText('Demo Bank')).toBeTruthy();
    expect(screen.getByText('**** **** **** 2345')).toBeTruthy();
  });

  it('offline, the card waits in the outbox, listed on /user/bank, its number kept off the device; sent once back online', async () => {
    const member = await seedMember('bankoffline');
    const { router } = await render('/user/bankAdd', member);
    const setOnline = (value: boolean) => {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
      window.dispatchEvent(new Event(value ? 'online' : 'offline'));
    };
    try {
      await screen.findByRole('button', { name: 'Save card' });
      setOnline(false);
      await type('Bank name', 'Offline Bank');
      await type('Card number', '6222 0000 1111 9876');
      await type('Card holder', 'Alice Demo');
      await userEvent.click(screen.getByRole('button', { name: 'Save card' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/user/bank'));
      const list = await screen.findByRole('list', { name: 'Waiting to be sent' });
      expect(list.textContent).toContain('Waiting for connection');
      expect(list.textContent).toContain('Offline Bank · Alice Demo');
      const stored = JSON.stringify(await Promise.all(appDeviceDb().tables.map((t) => t.toArray())));
      expect(stored).toContain('Offline Bank');
      expect(stored).not.toContain('6222000011119876');

      setOnline(true);
      await act(() => appSync().flush());
      await act(() => appSync().flush());
      const cards = await engineCall('/api/bank/list', undefined, {
        id: member.id,
        token: member.token,
      });
      expect(cards.list.filter((c) => c.bankName === 'Offline Bank')).toHaveLength(1);
    } finally {
      setOnline(true);
    }
  });

  it('/user/bank says when there are no cards', async () => {
    const member = await seedMember('nocards');
    await render('/user/bank', member);
    expect(await screen.findByText('No bank cards yet.')).toBeTruthy();
  });
});

describe('/user/cert', () => {
  it('checks name, document number and both photos inline, uploads them and submits for review', async () => {
    const member = await seedMember('certuser');
    await render('/user/cert', member);
    await userEvent.click(await screen.findByRole('button', { name: 'Submit for review' }));
    expect(errorOf('Full name')).toBe('Please enter your full name');
    expect(errorOf('ID document number')).toBe('Please enter the document number');
    expect(screen.getByText('Please upload the front side')).toBeTruthy();
    expect(screen.getByText('Please upload the back side')).toBeTruthy();
    await type('ID document number', 'ab');
    expect(errorOf('ID document number')).toBe('Use 5 to 32 letters, digits or dashes');

    await type('Full name', 'Alice Demo');
    await type('ID document number', 'X1234567');
    await userEvent.upload(
      screen.getByLabelText('Front side'),
      new File([PNG], 'front.png', { type: 'image/png' }),
    );
    await userEvent.upload(
      screen.getByLabelText('Back side'),
      new File([PNG], 'back.png', { type: 'image/png' }),
    );
    await waitFor(() => expect(screen.getAllByText('Uploaded')).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Submit for review' }));
    expect(await screen.findByText('Under review')).toBeTruthy();
    const profile = await engineCall('/api/user/getuser', undefined, member);
    expect(profile.realNameStatus).toBe('under review');
  });

  it('refuses a file that is not an image, on the field', async () => {
    const member = await seedMember('certbad');
    await render('/user/cert', member);
    const front = await screen.findByLabelText('Front side');
    await userEvent.upload(front, new File(['<svg/>'], 'x.png', { type: 'image/png' }), {
      applyAccept: false,
    });
    await waitFor(() => expect(front.getAttribute('aria-invalid')).toBe('true'));
  });
});

describe('/user/cert upload bounds', () => {
  it("says the server's upload storage is full (507), never that the device is, and names the 5 MiB limit (413)", async () => {
    const member = await seedMember('certfull');
    await render('/user/cert', member);
    const front = await screen.findByLabelText('Front side');
    const call = vi.spyOn(api, 'call');
    for (const [code, text] of [
      [507, "Uploads are paused: the server's storage is full."],
      [413, 'This file is larger than 5 MiB.'],
    ] as const) {
      call.mockRejectedValueOnce({ code, msg: 'refused by the server' });
      await userEvent.upload(front, new File([PNG], 'front.png', { type: 'image/png' }));
      await waitFor(() => expect(front.getAttribute('aria-invalid')).toBe('true'));
      expect(screen.getByText(new RegExp(`^${text.replace('.', '\\.')}`))).toBeTruthy();
    }
    expect(screen.queryByText(/device is out of storage/)).toBeNull();
    call.mockRestore();
  });
});

describe('/user/account (session wiring)', () => {
  it('shows the profile and logs out through the session machine', async () => {
    const member = await seedMember('accuser');
    const { router } = await render('/user/account', member);
    expect(await screen.findByText('accuser@example.test')).toBeTruthy();
    expect(screen.getByText('Not verified')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(userStore.get()).toBeNull());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.getByText('You have been logged out', { selector: '.toast' })).toBeTruthy();
    await expect(engineCall('/api/user/getuser', undefined, member)).rejects.toThrow(/401/);
  });
});
