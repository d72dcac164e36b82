/** /user/move: moves between the member's own accounts, from the replica's balances, through the outbox. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { appSync } from '../../sync/app';
import { engineCall, sentPaths } from '../../../tests/app/test-engine';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';
import { availableBySub } from './MovePage';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Move' }));

describe('availableBySub', () => {
  it("takes each account's available USDT, ignoring frozen rows, other assets and unknown accounts", () => {
    expect(
      availableBySub([
        { id: '1', sub: 'cash', frozen: false, asset: 'USDT', amount: '12.5' },
        { id: '2', sub: 'cash', frozen: true, asset: 'USDT', amount: '3' },
        { id: '3', sub: 'contract', frozen: false, asset: 'USDT', amount: '0.000001' },
        { id: '4', sub: 'fund', frozen: false, asset: 'BTC', amount: '1' },
        { id: '5', sub: 'bonus', frozen: false, asset: 'USDT', amount: '9' },
      ]),
    ).toEqual({ cash: '12.5', fund: '0', contract: '0.000001', options: '0', financial: '0' });
  });
});

describe('/user/move', () => {
  it('checks the form before sending anything, then moves cash to contracts once', async () => {
    const member = await fundedMember('mv', '100');
    await renderApp('/user/move', { user: member });
    await screen.findByRole('heading', { name: 'Move between your accounts' });
    await waitFor(() => expect(screen.getByText('Available 100.00 USDT')).toBeTruthy());
    sentPaths.length = 0;

    await submit();
    expect(screen.getByText('Enter an amount')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Amount (USDT)'));
    await userEvent.selectOptions(screen.getByLabelText('To'), 'cash');
    await userEvent.type(screen.getByLabelText('Amount (USDT)'), '100.000001');
    await submit();
    expect(screen.getByText('Choose two different accounts')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('To'), 'contract');
    await submit();
    expect(screen.getByText('More than the 100.00 USDT available in this account')).toBeTruthy();
    expect(sentPaths.filter((p) => p === '/api/account/transfer' || p === '/api/sync/push')).toEqual([]);

    await userEvent.clear(screen.getByLabelText('Amount (USDT)'));
    await userEvent.type(screen.getByLabelText('Amount (USDT)'), '40.5');
    await submit();
    await screen.findByText(
      'Moved 40.50 USDT from Cash to Contracts',
      { selector: '.toast' },
      { timeout: 5000 },
    );
    const assets = await engineCall('/api/account/assets', undefined, member);
    const byName = Object.fromEntries(assets.accounts.map((a) => [a.account, a.available]));
    expect(byName).toMatchObject({ cash: '59.5', contract: '40.5' });
    // The replica follows the next pull (in the app, a member's own write triggers one: src/sync/app.ts).
    await act(() => appSync().pull());
    await waitFor(() => expect(screen.getByText('Available 59.50 USDT')).toBeTruthy(), { timeout: 5000 });
  });
});
