import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { appDeviceDb } from '../../sync/device';
import { sentPaths, testClock, testEngine } from '../../../tests/app/test-engine';
import { addressOf, fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

async function open(amount = '0') {
  const member = await fundedMember('wd', amount);
  const payee = await fundedMember('payee');
  await renderApp('/user/withdraw', { user: member });
  await screen.findByRole('heading', { name: 'Withdraw USDT' });
  return { member, trc: await addressOf(payee, 'TRC20'), erc: await addressOf(payee, 'ERC20') };
}

const field = (name: string) => screen.getByLabelText(name);

describe('/user/withdraw form (SPEC.md §5 withdrawal)', () => {
  it('checks the address as it is typed, for the chosen network', async () => {
    const { erc, trc } = await open();
    // A beginning that can still become an address is not called wrong; a character base58 lacks is.
    await userEvent.type(field('Receiving address'), 'TR7N');
    expect(screen.queryByText('This is not a valid TRC-20 address')).toBeNull();
    await userEvent.type(field('Receiving address'), '0');
    expect(screen.getByText('This is not a valid TRC-20 address')).toBeTruthy();
    // A full-length address with one character changed fails its checksum.
    const last = trc.endsWith('a') ? 'b' : 'a';
    await userEvent.clear(field('Receiving address'));
    await userEvent.type(field('Receiving address'), trc.slice(0, -1) + last);
    expect(screen.getByText('This is not a valid TRC-20 address')).toBeTruthy();
    await userEvent.clear(field('Receiving address'));
    await userEvent.type(field('Receiving address'), erc);
    expect(screen.getByText(/belongs to the other network/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'USDT ERC-20' }));
    expect(screen.queryByText(/belongs to the other network/)).toBeNull();
    expect(field('Receiving address').getAttribute('aria-invalid')).toBeNull();
  });

  it('an empty or short submission shows every error inline and sends nothing', async () => {
    await open();
    sentPaths.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(3);
    for (const name of ['Receiving address', 'Amount', 'Security key'])
      expect(field(name).getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(field('Amount'), '5');
    await userEvent.type(field('Security key'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('The minimum withdrawal is 10.00 USDT')).toBeTruthy();
    expect(screen.getByText('The security key has at least 4 characters')).toBeTruthy();
    expect(sentPaths.filter((p) => p === '/api/withdraw/submit')).toEqual([]);
  });

  it('shows the fee and the amount received for the typed amount', async () => {
    await open();
    await userEvent.type(field('Amount'), '50.5');
    const quote = document.querySelector('.quote') as HTMLElement;
    await waitFor(() => expect(within(quote).getByText('1.00 USDT')).toBeTruthy());
    expect(within(quote).getByText('49.50 USDT')).toBeTruthy();
  });

  it("the confirmation shows the member's amount exactly: 50.125 USDT, not 50.13 (issue 15)", async () => {
    const { trc } = await open('100');
    await waitFor(() => expect(screen.getByText(/available 100.00 USDT/)).toBeTruthy());
    await userEvent.type(field('Receiving address'), trc);
    await userEvent.type(field('Amount'), '50.125');
    await userEvent.type(field('Security key'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
    expect(within(dialog).getByText('50.125 USDT')).toBeTruthy();
    // The fee quote arrives a moment after typing stops: wait for it as the member does.
    expect(await within(dialog).findByText('49.125 USDT')).toBeTruthy();
    expect(within(dialog).queryByText('50.13 USDT')).toBeNull();
  });

  it('a wrong key is refused (3007) and kept for correction; the right key is submitted (911), then reviewed', async () => {
    const { trc } = await open('100');
    await waitFor(() => expect(screen.getByText(/available 100.00 USDT/)).toBeTruthy());
    await userEvent.type(field('Receiving address'), trc);
    await userEvent.type(field('Amount'), '20');
    await userEvent.type(field('Security key'), '9999');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
    expect(within(dialog).getByText('20.00 USDT')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(
      () => expect(document.querySelector('.toast-error')?.textContent).toBe('The security key is wrong'),
      { timeout: 5000 },
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    // Also announced on the form, next to the key to correct.
    expect(
      screen.getByText('The security key is wrong', { selector: '.form-error' }).getAttribute('role'),
    ).toBe('alert');

    await userEvent.clear(field('Security key'));
    await userEvent.type(field('Security key'), SECRETS.key);
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Confirm withdrawal' })).getByRole('button', {
        name: 'Confirm',
      }),
    );
    expect(
      await screen.findByRole('heading', { name: 'Submitted, awaiting review' }, { timeout: 5000 }),
    ).toBeTruthy();
    // 911 is a success: its confirmation is a success toast, never a red error.
    await waitFor(() =>
      expect(document.querySelector('.toast-success')?.textContent).toBe(
        'Withdrawal submitted, awaiting review',
      ),
    );
    expect([...document.querySelectorAll('.toast-error')].map((e) => e.textContent)).not.toContain(
      'Withdrawal submitted, awaiting review',
    );
    // The security key never reached the device: not in its database (outbox, answers), not in storage.
    const db = appDeviceDb();
    const stored = JSON.stringify(await Promise.all(db.tables.map((table) => table.toArray())));
    expect(stored).toContain('/api/withdraw/submit');
    expect(stored).not.toMatch(/"key":"\d+"/);
    for (const row of await db.results.toArray())
      if (row.name === '/api/withdraw/submit')
        expect((row as { args?: object }).args).not.toHaveProperty('key');
    const storage = Object.keys(localStorage).map((k) => localStorage.getItem(k) ?? '');
    expect(storage.join('\n')).not.toMatch(/"key":"\d+"/);
    expect(storage).not.toContain(SECRETS.key);
    // The demo review runs 60 s after submission; its verdict arrives through the feed, not a poll.
    sentPaths.length = 0;
    testClock.advance(61_000);
    await (await testEngine()).settle();
    expect(await screen.findByRole('heading', { name: 'Withdrawal approved and sent' })).toBeTruthy();
    // One read of the list for the settled record's figures, after the feed said so.
    expect(sentPaths.filter((p) => p === '/api/withdraw/list').length).toBeLessThanOrEqual(1);
  }, 15_000);

  it('offline, the form is refused before anything is typed, with a note; it comes back online', async () => {
    let online = true;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
    const setOnline = (value: boolean) =>
      act(() => {
        online = value;
        window.dispatchEvent(new Event(value ? 'online' : 'offline'));
      });
    try {
      await open('50');
      await setOnline(false);
      const note = screen.getByText(/This needs a connection and cannot wait on the device/);
      expect(note.getAttribute('role')).toBe('status');
      // Disabled by their fieldset: nothing can be typed or sent.
      expect(field('Receiving address').matches(':disabled')).toBe(true);
      expect(field('Security key').matches(':disabled')).toBe(true);
      expect(screen.getByRole('button', { name: 'Withdraw' }).matches(':disabled')).toBe(true);
      await setOnline(true);
      expect(screen.queryByText(/This needs a connection/)).toBeNull();
      expect(field('Security key').matches(':disabled')).toBe(false);
    } finally {
      online = true;
    }
  });
});
