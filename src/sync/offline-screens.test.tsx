import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../app/test-utils';
import { userStore } from '../state/user-store';
import { engineCall, sentPaths } from '../../tests/app/test-engine';
import { buyVip, fundedMember, SECRETS, wireTestApi } from '../../tests/app/test-wallet';
import { appSync } from './app';
import { lastPulledAt } from './replica';

vi.mock('../api/transport-worker', () => import('../../tests/app/test-engine'));
vi.mock('../api/engine-transport', () => import('../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(() => {
  cleanup();
  setOnline(true);
});

function setOnline(value: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'));
  });
}

describe('screens read the device (issue 10, docs/RULES.md Y9)', () => {
  it('offline, /order/transferRecord and /user show the last pulled data with its time, calling nothing', async () => {
    const sender = await fundedMember('ofs', '100');
    const receiver = await fundedMember('ofr', '60');
    await buyVip(receiver, 1, SECRETS.key);
    await engineCall('/api/transfer/submit', { account: receiver.username, amount: '12.5' }, sender);
    await renderApp('/order/transferRecord', { user: sender });
    const online = await screen.findByRole('list', { name: 'Transfer records' });
    expect(within(online).getByText('-12.50 USDT')).toBeTruthy();
    await waitFor(async () => expect(await lastPulledAt(appSync().db, sender.id)).not.toBeNull());
    cleanup();

    setOnline(false);
    const before = sentPaths.length;
    await renderApp('/order/transferRecord', { user: sender });
    const offline = await screen.findByRole('list', { name: 'Transfer records' });
    expect(within(offline).getByText('-12.50 USDT')).toBeTruthy();
    expect(screen.getByTestId('freshness').textContent).toMatch(/^Updated /);
    expect(screen.getByTestId('pwa-online-status').textContent).toContain('You are offline');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    cleanup();

    await renderApp('/user', { user: sender });
    await waitFor(() => expect(document.querySelector('.hero-amount')?.textContent).toBe('87.50 USDT'));
    expect(screen.getByTestId('freshness').textContent).toMatch(/^Updated /);
    expect(sentPaths.slice(before).filter((p) => p === '/api/sync/pull')).toEqual([]);
  });

  it('"Try again" appears only where nothing was ever loaded', async () => {
    const member = await fundedMember('ofnever');
    setOnline(false);
    await renderApp('/order/rechargeRecord', { user: member });
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('a second member on the same device never sees the first member’s records', async () => {
    const first = await fundedMember('ofa', '50');
    const second = await fundedMember('ofb');
    await renderApp('/order/rechargeRecord', { user: first });
    await screen.findByRole('list', { name: 'Deposit records' });
    cleanup();
    setOnline(false);
    await renderApp('/order/rechargeRecord', { user: second });
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Deposit records' })).toBeNull();
  });

  it('the shell shows the sync status; activating it lists the queued mutations', async () => {
    const member = await fundedMember('ofq', '20');
    setOnline(false);
    await appSync().refresh();
    await appSync().db.outbox.add({
      id: 'queued-1',
      memberId: member.id,
      name: '/api/transfer/submit',
      args: { account: 'someone', amount: '4.5' },
      createdAt: Date.UTC(2026, 0, 5, 8, 30),
    });
    await appSync().refresh();
    await renderApp('/order/transferRecord', { user: member });
    await appSync().refresh();
    const chip = await screen.findByRole('button', { name: /^Sync status: Waiting: 1\./ });
    await userEvent.click(chip);
    const sheet = await screen.findByRole('dialog', { name: 'Waiting to be sent' });
    const item = await within(sheet).findByRole('listitem');
    expect(item.textContent).toContain('Transfer');
    expect(item.textContent).toContain('4.50 USDT');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await appSync().db.outbox.where('id').equals('queued-1').delete();
  });

  it('logout with writes waiting asks first, then clears the member’s data on the device', async () => {
    const member = await fundedMember('oflo', '30');
    await renderApp('/user/account', { user: member });
    await screen.findByText(member.username);
    await waitFor(async () => expect(await lastPulledAt(appSync().db, member.id)).not.toBeNull());
    await appSync().db.outbox.add({
      id: 'queued-logout',
      memberId: member.id,
      name: '/api/transfer/submit',
      args: { account: 'x', amount: '1' },
      createdAt: Date.now(),
    });
    await appSync().refresh();
    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log out?' });
    expect(dialog.textContent).toContain('Changes not sent yet: 1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log out anyway' }));
    await waitFor(() => expect(userStore.get()).toBeNull());
    const db = appSync().db;
    await waitFor(async () => expect(await db.replica.where('memberId').equals(member.id).count()).toBe(0));
    expect(await db.outbox.where('memberId').equals(member.id).count()).toBe(0);
    expect(await lastPulledAt(db, member.id)).toBeNull();
  });
});
