import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { sentPaths } from '../../../tests/app/test-engine';
import { fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

async function open(amount: string) {
  const member = await fundedMember('vp', amount);
  await renderApp('/user/vip', { user: member });
  await screen.findByRole('heading', { name: 'Levels' });
  return member;
}

const level = (n: number) => screen.getByRole('listitem', { name: `VIP${n}` });

describe('/user/vip', () => {
  it('lists every level with its deposit and receive limits, VIP0 current', async () => {
    await open('0');
    expect(within(level(0)).getByText('Current')).toBeTruthy();
    expect(within(level(0)).getAllByText('Cannot receive')).toHaveLength(2);
    expect(within(level(1)).getByText('Trial fee')).toBeTruthy();
    expect(within(level(1)).getByText('50.00 USDT')).toBeTruthy();
    expect(within(level(2)).getByText('500.00 USDT')).toBeTruthy();
    expect(within(level(2)).getByText('5,000.00 USDT')).toBeTruthy();
    expect(within(level(6)).getByText('20,000,000.00 USDT')).toBeTruthy();
  });

  it('buying asks for the key: too short is refused inline, a wrong key by the server (3007)', async () => {
    await open('600');
    await userEvent.click(within(level(2)).getByRole('button', { name: 'Buy VIP2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy VIP2' });
    sentPaths.length = 0;
    await userEvent.type(within(dialog).getByLabelText('Security key'), '12');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay 500.00 USDT' }));
    expect(within(dialog).getByText('The security key has at least 4 characters')).toBeTruthy();
    expect(sentPaths).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText('Security key'), '99');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay 500.00 USDT' }));
    await waitFor(() =>
      expect(document.querySelector('.toast-error')?.textContent).toBe('The security key is wrong'),
    );
    expect(within(level(0)).getByText('Current')).toBeTruthy();
  });

  it('VIP2 holds the deposit and can be refunded back to VIP0', async () => {
    await open('600');
    await userEvent.click(within(level(2)).getByRole('button', { name: 'Buy VIP2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy VIP2' });
    await userEvent.type(within(dialog).getByLabelText('Security key'), SECRETS.key);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay 500.00 USDT' }));
    expect(await screen.findByText('Deposit held: 500.00 USDT (refundable)')).toBeTruthy();
    await waitFor(() => expect(within(level(2)).getByText('Current')).toBeTruthy());
    expect(within(level(1)).queryByRole('button')).toBeNull();
    expect(within(level(3)).getByRole('button', { name: 'Upgrade to VIP3' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Refund my deposit' }));
    const refund = await screen.findByRole('dialog', { name: 'Refund VIP deposit' });
    await userEvent.click(within(refund).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(within(level(0)).getByText('Current')).toBeTruthy(), { timeout: 4000 });
  });

  it('the VIP1 trial counts down its 60 days', async () => {
    await open('60');
    await userEvent.click(within(level(1)).getByRole('button', { name: 'Buy VIP1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy VIP1' });
    await userEvent.type(within(dialog).getByLabelText('Security key'), SECRETS.key);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay 50.00 USDT' }));
    const timer = await screen.findByRole('timer');
    expect(timer.textContent).toMatch(/^Trial ends in (59 d 23:59:\d\d|60 d 00:00:00)$/);
  });
});
