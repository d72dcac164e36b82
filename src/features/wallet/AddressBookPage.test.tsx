/**
 * "Address book" (/user/addressbook) and the money-out checks before the confirmation sheets (issue 27 items
 * 3 and 4), against the in-memory engine: an address saved with its 24-hour hold counted down on the
 * engine's clock (moved as the demo's fast-forward moves it), the whitelist refusing an unsaved address on
 * the withdrawal form, a withdrawal above the balance or to the member's own deposit address stopped before
 * the sheet, and a transfer showing its recipient (masked) or refusing nobody on the form.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { announceDemoChange } from '../../lib/demo-events';
import { appSync } from '../../sync/app';
import { engineCall, sentPaths, testClock, testEngine } from '../../../tests/app/test-engine';
import { addressOf, buyVip, fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

const OUTSIDE = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const field = (name: string) => screen.getByLabelText(name);

describe('Address book (/user/addressbook)', () => {
  it('is listed under the account’s security screens as "Address book"', async () => {
    const member = await fundedMember('abl');
    await renderApp('/user/account', { user: member });
    const link = await screen.findByRole('link', { name: 'Address book' });
    expect(link.getAttribute('href')).toBe('/user/addressbook');
  });

  it('saves an address with its label, counts its hold down on the engine clock, and refuses a bad label', async () => {
    const member = await fundedMember('abs');
    await renderApp('/user/addressbook', { user: member });
    expect(await screen.findByText('No saved addresses yet')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add an address' }));
    await userEvent.type(field('Receiving address'), OUTSIDE);
    await userEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(screen.getByText('Name the address')).toBeTruthy();
    await userEvent.type(field('Label'), 'Cold wallet');
    await userEvent.click(screen.getByRole('button', { name: 'Save address' }));
    const timer = await screen.findByRole('timer', {}, { timeout: 5000 });
    expect(timer.textContent).toMatch(/^On hold: usable in (0 d 2[34]|1 d 00):\d\d:\d\d$/);
    expect(screen.getByText('Cold wallet')).toBeTruthy();
    expect(screen.getByText(OUTSIDE).getAttribute('dir')).toBe('ltr');

    // The demo's fast-forward moves the engine's clock; the page reads it again when told.
    await act(async () => {
      testClock.advance(24 * 3_600_000);
      await (await testEngine()).settle();
      announceDemoChange();
    });
    expect(await screen.findByText('Ready to use')).toBeTruthy();
    expect(screen.queryByRole('timer')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Remove Cold wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this address?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No saved addresses yet', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('the whitelist switch: on, an unsaved address is refused on the withdrawal form and nothing is sent', async () => {
    const member = await fundedMember('abw', '100');
    await renderApp('/user/addressbook', { user: member });
    const toggle = await screen.findByRole('switch');
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await userEvent.click(toggle);
    await waitFor(() => expect((screen.getByRole('switch') as HTMLInputElement).checked).toBe(true), {
      timeout: 5000,
    });
    expect(screen.getByText('On: withdrawals only to saved addresses')).toBeTruthy();
    cleanup();

    await renderApp('/user/withdraw', { user: member });
    await screen.findByRole('heading', { name: 'Withdraw USDT' });
    await waitFor(() => expect(screen.getByText(/Whitelist on/)).toBeTruthy());
    await userEvent.type(field('Receiving address'), OUTSIDE);
    await userEvent.type(field('Amount'), '20');
    await userEvent.type(field('Security key'), SECRETS.key);
    sentPaths.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(
      await screen.findByText('Your whitelist is on: choose an address saved in your address book'),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sentPaths).not.toContain('/api/withdraw/submit');
  });
});

describe('money-out checks before the sheet', () => {
  it('a withdrawal above the balance, or to the member’s own deposit address, never reaches the sheet', async () => {
    const member = await fundedMember('abm', '50');
    const own = await addressOf(member, 'TRC20');
    await renderApp('/user/withdraw', { user: member });
    await screen.findByRole('heading', { name: 'Withdraw USDT' });
    await waitFor(() => expect(screen.getByText(/available 50.00 USDT/)).toBeTruthy());
    await userEvent.type(field('Receiving address'), OUTSIDE);
    await userEvent.type(field('Amount'), '999998');
    await userEvent.type(field('Security key'), SECRETS.key);
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('The amount is more than your available balance')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.clear(field('Amount'));
    await userEvent.type(field('Amount'), '20');
    await userEvent.clear(field('Receiving address'));
    await userEvent.type(field('Receiving address'), own);
    sentPaths.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(
      await screen.findByText(
        'This is your own deposit address: a withdrawal there would come back to you less the fee',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sentPaths).not.toContain('/api/withdraw/submit');
  });

  it('warns when the address is another member’s deposit address (an internal transfer is free)', async () => {
    const member = await fundedMember('abx', '50');
    const other = await fundedMember('aby');
    await renderApp('/user/withdraw', { user: member });
    await screen.findByRole('heading', { name: 'Withdraw USDT' });
    await userEvent.type(field('Receiving address'), await addressOf(other, 'TRC20'));
    expect(
      await screen.findByText(/another Strata member's deposit address/, {}, { timeout: 5000 }),
    ).toBeTruthy();
  });

  it('a transfer shows its recipient masked with the level before the sheet; nobody is refused on the form', async () => {
    const member = await fundedMember('abt', '30');
    const vip = await fundedMember('recipient', '60');
    await buyVip(vip, 1, SECRETS.key);
    await renderApp('/user/transfer', { user: member });
    await screen.findByRole('heading', { name: 'Transfer to a member' });
    await userEvent.type(field('Recipient'), 'nobody_here_xyz');
    await userEvent.type(field('Amount'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('The account does not exist')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(field('Recipient'));

    await userEvent.clear(field('Recipient'));
    await userEvent.type(field('Recipient'), vip.username);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm transfer' });
    const masked = `${vip.username.slice(0, 2)}***${vip.username.slice(-2)} · VIP1`;
    expect(within(dialog).getByText(masked)).toBeTruthy();
    expect(dialog.textContent).not.toContain('Security key');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer now' }));
    await act(() => appSync().flush());
    await waitFor(
      async () => {
        const list = await engineCall('/api/transfer/list', {}, member);
        expect(list.total).toBe(1);
      },
      { timeout: 5000 },
    );
    // The screen has its answer too (nothing of the confirmation is left running after the test).
    await screen.findByRole('status', { name: 'Transfer complete' }, { timeout: 5000 });
  });
});
