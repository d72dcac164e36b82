/**
 * The notification centre (docs/SPEC.md §12): notices from the device replica (a deposit credited, a price
 * alert that went off after the clock moved), the unread count /user shows and its reset when the centre is
 * opened (recorded on the service, so the member's other devices agree), setting and cancelling alerts through
 * the outbox, and system notifications asked for only from the member's press.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { renderApp } from '../../app/test-utils';
import { engineCall, testClock, testEngine } from '../../../tests/app/test-engine';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const notices = () => screen.findByRole('list', { name: 'Notifications' });

type Auth = { id: string; token: string };

/** The read state the service has recorded for the member ("0": none), as their other devices pull it. */
async function recordedOnService(auth: Auth): Promise<string> {
  const pulled = await engineCall('/api/sync/pull', {}, auth);
  const read = pulled.changes.filter((c) => c.table === 'noticeReads').at(-1)?.record;
  return read === undefined ? '0' : z.object({ seen: z.string() }).parse(read).seen;
}

async function newestNotice(auth: Auth): Promise<string> {
  const list = await engineCall('/api/security/notices', {}, auth);
  return list.list[0]!.id;
}

describe('/user/notifications, the notification centre', () => {
  it('lists a credited deposit, counts it unread on /user until the centre is opened', async () => {
    const member = await fundedMember('nc', '250');
    await renderApp('/user', { user: member });
    // A fresh member's first pull (up to 8 s with the 2-core machine at load 25, 2026-11-29).
    const bell = await screen.findByRole('link', { name: 'Notifications, 1 unread' }, { timeout: 15_000 });
    expect(bell.getAttribute('href')).toBe('/user/notifications');
    cleanup();
    await renderApp('/user/notifications', { user: member });
    const list = await notices();
    expect(await within(list).findByText('Deposit credited')).toBeTruthy();
    expect(within(list).getByText('250.00 USDT arrived in your cash account (TRC-20).')).toBeTruthy();
    expect(within(list).getByText('New')).toBeTruthy();
    // Recorded on the service through the outbox, not only on this device.
    const auth = { id: member.id, token: member.token };
    const deposit = await newestNotice(auth);
    await waitFor(async () => expect(await recordedOnService(auth)).toBe(deposit), { timeout: 15_000 });
    cleanup();
    await renderApp('/user', { user: member });
    expect(await screen.findByRole('link', { name: 'Notifications, 0 unread' })).toBeTruthy();
  });

  it('counts as read what the member read on another device, and only what came after as new', async () => {
    const member = await fundedMember('od', '40');
    const auth = { id: member.id, token: member.token };
    // The member's tablet showed them the deposit notice; this device has never opened the centre.
    const deposit = await newestNotice(auth);
    await engineCall('/api/notice/seen', { id: deposit }, auth);
    await renderApp('/user', { user: member });
    // Once the first pull brought the deposit (its balance shown), the count is the service's: none unread.
    expect((await screen.findAllByText('40.00', {}, { timeout: 15_000 })).length).toBeGreaterThan(0);
    expect(await screen.findByRole('link', { name: 'Notifications, 0 unread' })).toBeTruthy();
    cleanup();
    await engineCall('/api/security/antiphishing', { phrase: 'tablet tea' }, auth);
    const later = await newestNotice(auth);
    await renderApp('/user', { user: member });
    expect(
      await screen.findByRole('link', { name: 'Notifications, 1 unread' }, { timeout: 15_000 }),
    ).toBeTruthy();
    cleanup();
    await renderApp('/user/notifications', { user: member });
    const list = await notices();
    expect(await within(list).findByText('Deposit credited')).toBeTruthy();
    // Only the notice that came after is marked new; opening the centre records it for the tablet too.
    expect(within(list).getAllByText('New')).toHaveLength(1);
    await waitFor(async () => expect(await recordedOnService(auth)).toBe(later), { timeout: 15_000 });
  });

  it('sets a move alert through the outbox, lists it, and shows it in the centre once the clock moved', async () => {
    const member = await fundedMember('al', '10');
    const user = userEvent.setup();
    await renderApp('/user/notifications', { user: member });
    const form = await screen.findByRole('button', { name: 'Set alert' });
    await user.click(screen.getByRole('button', { name: 'Moves by' }));
    await user.click(form);
    expect(await screen.findByText('Enter a value')).toBeTruthy();
    await user.type(screen.getByLabelText('Move (%), either way'), '0.1');
    await user.click(form);
    expect(await screen.findByText('Alert set', {}, { timeout: 5_000 })).toBeTruthy();
    const active = await screen.findByRole('list', { name: 'Active alerts' }, { timeout: 5_000 });
    expect(await within(active).findByText(/Moves ±0\.10% from/)).toBeTruthy();
    cleanup();
    testClock.advance(12 * 3_600_000);
    await (await testEngine()).settle();
    await renderApp('/user/notifications', { user: member });
    const list = await notices();
    expect(await within(list).findByText('Price alert')).toBeTruthy();
    expect(within(list).getByText(/moved 0\.10% to .*: your alert went off\./)).toBeTruthy();
    expect(await screen.findByText('No active alerts.')).toBeTruthy();
    // The filter keeps one kind.
    await userEvent.click(screen.getByRole('button', { name: 'Funds' }));
    expect(within(await notices()).queryByText('Price alert')).toBeNull();
  });

  it('cancels an alert; a price already met is refused with its catalogue message', async () => {
    const member = await fundedMember('ac', '10');
    const auth = { id: member.id, token: member.token };
    await engineCall('/api/alert/create', { symbol: 'ETH/USDT', kind: 'move', percent: '20' }, auth);
    const user = userEvent.setup();
    await renderApp('/user/notifications', { user: member });
    await user.click(await screen.findByRole('button', { name: 'Cancel the ETH/USDT alert' }));
    expect(await screen.findByText('No active alerts.')).toBeTruthy();
    await user.type(screen.getByLabelText('Price (USDT)'), '1');
    await user.click(screen.getByRole('button', { name: 'Set alert' }));
    // Checked on the device against the price shown, before anything is sent.
    expect(await screen.findByText('Enter a price above the price now')).toBeTruthy();
  });

  it('asks for system notifications only when the member presses "Turn on"', async () => {
    const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
    vi.stubGlobal('Notification', { permission: 'default', requestPermission });
    Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
    const member = await fundedMember('sn', '0');
    await renderApp('/user/notifications', { user: member });
    const turnOn = await screen.findByRole('button', { name: 'Turn on' });
    expect(requestPermission).not.toHaveBeenCalled();
    await userEvent.click(turnOn);
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(
        screen.getByText('On: notices are shown by your device while Strata is in the background.'),
      ).toBeTruthy(),
    );
  });
});
