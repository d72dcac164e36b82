import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { testClock, testEngine } from '../../../tests/app/test-engine';
import { addressOf, fundedMember, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

describe('/user/recharge', () => {
  it('shows the exclusive address of the chosen network with a QR code and a copy button', async () => {
    const member = await fundedMember('rp');
    const trc = await addressOf(member, 'TRC20');
    const erc = await addressOf(member, 'ERC20');
    await renderApp('/user/recharge', { user: member });
    expect(await screen.findByText(trc)).toBeTruthy();
    expect((await screen.findByAltText(`QR code of the deposit address ${trc}`)).getAttribute('src')).toMatch(
      /^data:image\/svg\+xml/,
    );
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeTruthy();
    expect(screen.getByText('Credited after 19 block confirmations.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'USDT ERC-20' }));
    expect(await screen.findByText(erc)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'USDT ERC-20' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('Credited after 12 block confirmations.')).toBeTruthy();
  });

  it('a simulated payment, labelled as a demo, shows its confirmations and is credited', async () => {
    const member = await fundedMember('rpay');
    await renderApp('/user/recharge', { user: member });
    const panel = (await screen.findByRole('heading', { name: 'Simulate a payment (demo)' })).parentElement!;
    expect(within(panel).getByText(/Demo only/)).toBeTruthy();
    const amount = within(panel).getByLabelText('Simulated amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '25.5');
    await userEvent.click(within(panel).getByRole('button', { name: 'Send simulated payment' }));
    expect(await screen.findByText('0 / 19 confirmations')).toBeTruthy();
    expect(screen.getByText('Pending')).toBeTruthy();
    testClock.advance(30_000);
    await (await testEngine()).settle();
    await waitFor(() => expect(screen.getByText('10 / 19 confirmations')).toBeTruthy(), { timeout: 5000 });
    testClock.advance(60_000);
    await (await testEngine()).settle();
    await waitFor(() => expect(screen.getByText('Successful')).toBeTruthy(), { timeout: 5000 });
    // The credit's notice comes from the feed, on its own schedule: wait for it as the member does.
    await waitFor(
      () =>
        expect(document.querySelector('.toast-success')?.textContent).toBe('Deposit of 25.50 USDT credited'),
      { timeout: 5000 },
    );
  }, 15_000);
});
