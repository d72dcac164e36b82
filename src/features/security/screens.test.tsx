import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { wireApi } from '../../app/api-wiring';
import { renderApp } from '../../app/test-utils';
import { engineCall, seedMember, SECRETS, sentPaths } from '../../../tests/app/test-engine';
import { phraseValid } from './AntiPhishingPage';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

afterEach(cleanup);
beforeAll(() => wireApi(() => undefined));

describe('Account and security list', () => {
  it('has the member-security entries under their plain names', async () => {
    const member = await seedMember('seclinks');
    await renderApp('/user/account', { user: member });
    const list = await screen.findByRole('heading', { name: 'Security and services' });
    const card = list.closest('section') as HTMLElement;
    for (const [name, href] of [
      ['Two-factor authentication', '/user/twofactor'],
      ['Passkeys', '/user/passkeys'],
      ['Devices', '/user/devices'],
      ['Anti-phishing code', '/user/antiphishing'],
    ] as const) {
      expect(within(card).getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
  });
});

describe('/user/devices', () => {
  it('lists this device first and another session, logs the other out, and shows the login history', async () => {
    const member = await seedMember('devices1');
    // A second login (another device) opens another session.
    await engineCall('/api/index/login', { username: 'devices1', password: SECRETS.password });
    await renderApp('/user/devices', { user: member });
    const sessions = await screen.findByRole('list', { name: 'Signed in now' });
    await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(2));
    const [first, second] = within(sessions).getAllByRole('listitem');
    expect(within(first as HTMLElement).getByText('This device')).toBeTruthy();
    expect(within(second as HTMLElement).queryByText('This device')).toBeNull();
    const history = await screen.findByRole('list', { name: 'Login history' });
    expect(within(history).getAllByRole('listitem').length).toBeGreaterThanOrEqual(2);

    await userEvent.click(
      within(second as HTMLElement).getByRole('button', { name: /^Log out this device/ }),
    );
    expect(await screen.findByText('That device is logged out', { selector: '.toast' })).toBeTruthy();
    await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Log out all other devices' })).toBeNull();
  });

  it('logs out all other devices after a confirmation', async () => {
    const member = await seedMember('devices2');
    await engineCall('/api/index/login', { username: 'devices2', password: SECRETS.password });
    await engineCall('/api/index/login', { username: 'devices2', password: SECRETS.password });
    await renderApp('/user/devices', { user: member });
    await userEvent.click(await screen.findByRole('button', { name: 'Log out all other devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log out all other devices?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log out all other devices' }));
    expect(await screen.findByText('Other devices logged out: 2', { selector: '.toast' })).toBeTruthy();
    const sessions = screen.getByRole('list', { name: 'Signed in now' });
    await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(1));
  });
});

describe('/user/antiphishing', () => {
  it('checks the phrase as the engine does', () => {
    expect(phraseValid('abc')).toBe(false);
    expect(phraseValid('blue fox 42')).toBe(true);
    expect(phraseValid('<script>')).toBe(false);
    expect(phraseValid('a'.repeat(21))).toBe(false);
    expect(phraseValid('فنجان قهوة')).toBe(true);
  });

  it('refuses a bad phrase in place, saves a good one and every message then carries it', async () => {
    const member = await seedMember('phish1');
    await renderApp('/user/antiphishing', { user: member });
    const field = await screen.findByRole('textbox', { name: 'Anti-phishing code' });
    sentPaths.length = 0;
    await userEvent.type(field, 'ab<');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Use 4 to 20 letters, digits, spaces or . _ - ! ?')).toBeTruthy();
    expect(sentPaths).toEqual([]);
    await userEvent.clear(field);
    await userEvent.type(field, 'Blue fox 42');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Anti-phishing code saved', { selector: '.toast' })).toBeTruthy();
    expect(await screen.findByText('Blue fox 42', { selector: 'dd bdi' })).toBeTruthy();
    cleanup();

    // The notice of the change, on the devices screen's messages, carries the new code.
    await renderApp('/user/devices', { user: member });
    const messages = await screen.findByRole('list', { name: 'Messages from Strata' });
    const item = await within(messages).findByText('Anti-phishing code changed');
    const row = item.closest('li') as HTMLElement;
    expect(within(row).getByText('Blue fox 42')).toBeTruthy();
  });
});

describe('/user/passkeys', () => {
  it('says so when the browser cannot use passkeys, and lists none yet', async () => {
    const member = await seedMember('passkeys1');
    await renderApp('/user/passkeys', { user: member });
    expect(await screen.findByText('This browser cannot use passkeys.')).toBeTruthy();
    expect(await screen.findByText('No passkeys yet')).toBeTruthy();
  });
});
