import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { engineCall, testClock, testEngine } from '../../../tests/app/test-engine';
import { buyVip, deposit, fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

const list = (name: string) => screen.findByRole('list', { name });

describe('record lists (SPEC.md §2, §4 status labels)', () => {
  it('/order/rechargeRecord pages ten at a time with load more, newest first', async () => {
    const member = await fundedMember('rc');
    for (let i = 1; i <= 12; i += 1) await deposit(member, String(i));
    await renderApp('/order/rechargeRecord', { user: member });
    const deposits = await list('Deposit records');
    expect(within(deposits).getAllByRole('listitem')).toHaveLength(10);
    expect(within(deposits).getAllByRole('listitem')[0]?.textContent).toContain('+12.00 USDT');
    expect(within(deposits).getAllByText('Successful')).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'Load more (10 of 12)' }));
    expect(await screen.findByText('End of the list: 12 in total')).toBeTruthy();
    expect(within(deposits).getAllByRole('listitem')).toHaveLength(12);
  });

  it('an empty list says so', async () => {
    const member = await fundedMember('empty');
    await renderApp('/order/transferRecord', { user: member });
    expect(await screen.findByText('No transfers yet.')).toBeTruthy();
  });

  it('withdrawals show pending, then the audit list shows pending audit and approved', async () => {
    const member = await fundedMember('au', '100');
    const payee = await fundedMember('aup');
    const auth = { id: member.id, token: member.token };
    const { address } = await engineCall(
      '/api/recharge/address',
      { network: 'TRC20' },
      { id: payee.id, token: payee.token },
    );
    await engineCall(
      '/api/withdraw/submit',
      {
        currency: 'USDT',
        network: 'TRC20',
        address,
        amount: '20',
        key: SECRETS.key,
      },
      auth,
    ).catch(() => undefined); // answered 911
    await renderApp('/order/withdrawRecord', { user: member });
    const withdrawals = await list('Withdrawal records');
    expect(within(withdrawals).getByText('-20.00 USDT')).toBeTruthy();
    expect(within(withdrawals).getByText('Pending')).toBeTruthy();
    expect(within(withdrawals).getByText('Fee 1.00 · received 19.00 USDT')).toBeTruthy();
    cleanup();
    await renderApp('/pay/record', { user: member });
    expect(within(await list('Audit records')).getByText('Pending audit')).toBeTruthy();
    cleanup();
    testClock.advance(61_000);
    await (await testEngine()).settle();
    await renderApp('/pay/record', { user: member });
    // The device shows its last copy at once, and the pull the screen asked for brings the review's outcome.
    expect(await within(await list('Audit records')).findByText('Approved')).toBeTruthy();
  });

  it('/order/vipRecord and /order/transferRecord show each side of the story', async () => {
    const sender = await fundedMember('vs', '100');
    const receiver = await fundedMember('vr', '60');
    await buyVip(receiver, 1, SECRETS.key);
    await engineCall('/api/transfer/submit', { account: receiver.username, amount: '5' }, sender);
    await renderApp('/order/vipRecord', { user: receiver });
    const vip = await list('VIP records');
    expect(within(vip).getByText('VIP1 trial')).toBeTruthy();
    expect(within(vip).getByText('VIP0 → VIP1')).toBeTruthy();
    cleanup();
    await renderApp('/order/transferRecord', { user: receiver });
    const transfers = await list('Transfer records');
    expect(within(transfers).getByText(`From ${sender.username}`)).toBeTruthy();
    expect(within(transfers).getByText('+5.00 USDT')).toBeTruthy();
    // The first row's amount is the screen's first data for Element Timing (issue 25).
    expect(transfers.querySelector('.record:first-child [elementtiming="record-row"]')?.textContent).toBe(
      '+5.00 USDT',
    );
  });

  it('filters withdrawals by status and date on the device, copies a hash, and exports the statement as CSV', async () => {
    const member = await fundedMember('fl', '200');
    const auth = { id: member.id, token: member.token };
    const address = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
    const withdraw = (amount: string) =>
      engineCall(
        '/api/withdraw/submit',
        { currency: 'USDT', network: 'TRC20', address, amount, key: SECRETS.key },
        auth,
      ).catch(() => undefined); // answered 911
    await withdraw('20');
    testClock.advance(61_000);
    await (await testEngine()).settle();
    await withdraw('30.5');
    const user = userEvent.setup();
    await renderApp('/order/withdrawRecord', { user: member });
    const withdrawals = await list('Withdrawal records');
    await within(withdrawals).findByText('-30.50 USDT');
    await user.selectOptions(screen.getByLabelText('Status'), 'pending');
    expect(screen.getByText('1 of 2 shown')).toBeTruthy();
    expect(within(await list('Withdrawal records')).queryByText('-20.00 USDT')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await user.type(screen.getByLabelText('From'), dayOf(testClock.now() + 86_400_000));
    expect(await screen.findByText('No withdrawals yet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    // The sent one's hash and both addresses have Copy.
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const rows = within(await list('Withdrawal records'));
    const copies = await rows.findAllByRole('button', { name: 'Copy' });
    expect(copies).toHaveLength(3);
    await user.click(copies[2]!);
    expect(writeText).toHaveBeenCalledWith(expect.stringMatching(/^[0-9a-f]{64}$/));
    cleanup();

    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:statement';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await renderApp('/user/statement', { user: member });
    await user.clear(await screen.findByLabelText('From'));
    await user.type(screen.getByLabelText('From'), dayOf(testClock.now() - 86_400_000));
    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), dayOf(testClock.now()));
    expect(await screen.findByText('Entries in this range: 3')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(click).toHaveBeenCalledTimes(1);
    const csv = (await blobs[0]!.text()).replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('Time,Type,Amount,Fee,Currency,Status,Network,Reference,Account');
    expect(lines.slice(1).map((l) => l.split(',').slice(1, 4).join(','))).toEqual([
      'Withdrawal,-30.5,1',
      'Withdrawal,-20,1',
      'Deposit,200,0',
    ]);
    click.mockRestore();
  });
});

/** The device's local day of `ms`, as a date input's value. */
function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
