import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { engineCall } from '../../../tests/app/test-engine';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-market'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

describe('order preview and position risk (issue 13)', { timeout: 20_000 }, () => {
  it('K11 K12: before opening, the contract form shows fill price, slippage, fee, margin and liquidation price for the chosen side; the position shows margin ratio and funding', async () => {
    const member = await fundedMember('pv', '1000');
    await engineCall('/api/account/transfer', { from: 'cash', to: 'contract', amount: '500' }, member);
    await renderApp('/contract', { user: member });
    await screen.findByRole('form', { name: 'Spot order' }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('tab', { name: 'Contract' }));
    const form = await screen.findByRole('form', { name: 'Contract order' });
    await within(form).findByText('Available: 500.00 USDT', undefined, { timeout: 5000 });
    await userEvent.type(within(form).getByLabelText('Quantity (BTC)'), '0.001');
    const preview = await within(form).findByRole('region', { name: 'Before you place' }, { timeout: 5000 });
    for (const label of ['Est. fill price', 'Slippage', 'Fee', 'Margin required', 'Liq. price (mark)']) {
      expect(within(preview).getByText(label)).toBeTruthy();
    }
    // Stacked label/value rows for the side the toggle chose, a price at the pair's tick (BTC: 2 places).
    const lines = (label: string) =>
      [...(within(preview).getByText(label).parentElement?.querySelectorAll('.figure-line') ?? [])].map(
        (line) => [
          line.querySelector('.figure-side')?.textContent,
          line.querySelector('.amount')?.textContent,
        ],
      );
    expect(lines('Est. fill price')).toEqual([[undefined, expect.stringMatching(/^[\d,]+\.\d{2}$/)]]);
    expect(lines('Slippage')).toEqual([[undefined, '0.00%']]);
    const longFill = lines('Est. fill price')[0]![1];
    await userEvent.click(within(form).getByRole('button', { name: 'Short' }));
    // The short's estimate walks the bids: below the long's, which walks the asks.
    const shortFill = lines('Est. fill price')[0]![1]!;
    expect(Number(shortFill.replace(/,/g, ''))).toBeLessThan(Number(longFill!.replace(/,/g, '')));
    await userEvent.click(within(form).getByRole('button', { name: 'Long' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Open long' }));
    const sheet = await screen.findByRole('dialog', { name: 'Confirm: Long BTC/USDT' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Open long' }));
    await userEvent.click(screen.getByRole('tab', { name: 'Positions' }));
    const position = await screen.findByRole('listitem', { name: 'BTC/USDT Long' }, { timeout: 5000 });
    // A cross position's ratio is the cross account's, shown once above the list (issue 24).
    const account = screen.getByRole('region', { name: 'Cross margin account' });
    expect(within(account).getByText('Account margin ratio')).toBeTruthy();
    expect(within(account).getByText(/^\d+\.\d\d%$/)).toBeTruthy();
    expect(within(position).getByText('Funding paid')).toBeTruthy();
  });

  it('S7: a spot market order shows its estimate; a limit order does not', async () => {
    const member = await fundedMember('pv2', '1000');
    await renderApp('/contract', { user: member });
    const form = await screen.findByRole('form', { name: 'Spot order' }, { timeout: 5000 });
    await userEvent.click(within(form).getByRole('button', { name: 'Market' }));
    await userEvent.type(within(form).getByLabelText('Quantity (BTC)'), '0.01');
    const preview = await within(form).findByRole('region', { name: 'Before you place' }, { timeout: 5000 });
    expect(within(preview).getByText('Est. fill price')).toBeTruthy();
    expect(within(preview).queryByText('Margin required')).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: 'Limit' }));
    expect(within(form).queryByRole('region', { name: 'Before you place' })).toBeNull();
  });
});
