import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { appSync } from '../../sync/app';
import { startAppWrites } from '../../sync/app-writes';
import { engineCall, sentPaths, type SeededMember } from '../../../tests/app/test-engine';
import { buyVip, fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

const field = (name: string) => screen.getByLabelText(name);
const next = () => userEvent.click(screen.getByRole('button', { name: 'Next' }));

async function open(amount = '0') {
  const member = await fundedMember('tr', amount);
  await renderApp('/user/transfer', { user: member });
  await screen.findByRole('heading', { name: 'Transfer to a member' });
  return member;
}

describe('/user/transfer (SPEC.md §5 transfer)', () => {
  it('checks recipient and amount inline and sends nothing: required, at least the site minimum, not oneself', async () => {
    const member = await open('10');
    sentPaths.length = 0;
    await next();
    expect(screen.getByText("Enter the recipient's username, phone or e-mail")).toBeTruthy();
    expect(screen.getByText('Enter an amount')).toBeTruthy();
    expect(field('Recipient').getAttribute('aria-invalid')).toBe('true');
    // A refused form moves focus to its first invalid field, not its button.
    expect(document.activeElement).toBe(field('Recipient'));

    // The member's own profile and balance are on the device (as the member sees: the available figure).
    await screen.findByText(/Available 10.00 USDT/);
    await userEvent.type(field('Recipient'), member.username);
    await userEvent.type(field('Amount'), '0.5');
    await next();
    expect(screen.getByText('You cannot transfer to yourself')).toBeTruthy();
    expect(screen.getByText('The amount is at least 1 USDT')).toBeTruthy();

    await userEvent.clear(field('Amount'));
    await userEvent.type(field('Amount'), '11');
    await next();
    expect(screen.getByText('The amount is more than your available balance')).toBeTruthy();
    expect(document.activeElement).toBe(field('Recipient'));
    expect(sentPaths.filter((p) => p === '/api/transfer/submit')).toEqual([]);
  });

  it('a recipient without VIP is refused on the form (3002, looked up before the sheet), announced there', async () => {
    const other = await fundedMember('novip');
    await open('10');
    await userEvent.type(field('Recipient'), other.username);
    await userEvent.type(field('Amount'), '2');
    sentPaths.length = 0;
    await next();
    const error = await screen.findByText('The other party has not activated VIP', {}, { timeout: 5000 });
    expect(error.getAttribute('role')).toBe('alert');
    expect(field('Recipient').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sentPaths).toEqual(['/api/transfer/recipient']);
  });

  it('confirms recipient and amount without a key, then shows the transfer done and the new balance', async () => {
    const vip = await fundedMember('vipr', '60');
    await buyVip(vip, 1, SECRETS.key);
    await open('25');
    await userEvent.type(field('Recipient'), vip.username);
    await userEvent.type(field('Amount'), '12.5');
    await next();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm transfer' });
    expect(within(dialog).getByText(vip.username)).toBeTruthy();
    expect(within(dialog).getByText('12.50 USDT')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Security key')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer now' }));
    expect(await screen.findByRole('heading', { name: 'Transfer complete' }, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/Available 12.50 USDT/)).toBeTruthy());
  });
});

/** navigator.onLine and its event, as the browser reports losing and finding the network. */
function setOnline(value: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
  window.dispatchEvent(new Event(value ? 'online' : 'offline'));
}

async function availableOf(member: SeededMember): Promise<string> {
  const profile = await engineCall('/api/user/getuser', undefined, {
    id: member.id,
    token: member.token,
  });
  return profile.available;
}

async function transferOffline(to: string, amount: string) {
  setOnline(false);
  await userEvent.type(field('Recipient'), to);
  await userEvent.type(field('Amount'), amount);
  await next();
  const dialog = await screen.findByRole('dialog', { name: 'Confirm transfer' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer now' }));
}

describe('/user/transfer offline: the transfer waits in the outbox (issue 10)', () => {
  afterEach(() => setOnline(true));

  it('is listed as waiting with its amount, the waiting sum shows beside an unchanged balance, and it is pushed once on reconnect', async () => {
    const vip = await fundedMember('vipo', '60');
    await buyVip(vip, 1, SECRETS.key);
    const before = await availableOf(vip);
    await open('25');
    await waitFor(() => expect(screen.getByText(/Available 25.00 USDT/)).toBeTruthy());
    sentPaths.length = 0;
    await transferOffline(vip.username, '12.5');

    const list = await screen.findByRole('list', { name: 'Waiting to be sent' });
    expect(within(list).getByText('Waiting for connection')).toBeTruthy();
    expect(within(list).getByText('-12.50 USDT')).toBeTruthy();
    expect(within(list).getByText(`To ${vip.username}`)).toBeTruthy();
    expect(screen.getByText('−12.50 USDT waiting')).toBeTruthy();
    // The confirmed balance is the server's: unchanged until it answers.
    expect(screen.getByText(/Available 25.00 USDT/)).toBeTruthy();
    expect(sentPaths).not.toContain('/api/sync/push');

    const stop = startAppWrites();
    setOnline(true);
    // What the leader tab does on the online event; a second flush finds nothing left to push.
    await act(() => appSync().flush());
    await act(() => appSync().flush());
    await waitFor(() => expect(screen.queryByText('Waiting for connection')).toBeNull());
    await waitFor(() => expect(screen.getByText(/Available 12.50 USDT/)).toBeTruthy());
    expect(screen.queryByText('−12.50 USDT waiting')).toBeNull();
    expect(sentPaths.filter((p) => p === '/api/sync/push')).toHaveLength(1);
    expect(Number(await availableOf(vip)) - Number(before)).toBe(12.5);
    stop();
  });

  it('a refusal replaces the waiting mark with the catalogue error and its meaning, money untouched', async () => {
    const other = await fundedMember('novipo');
    await open('25');
    await waitFor(() => expect(screen.getByText(/Available 25.00 USDT/)).toBeTruthy());
    await transferOffline(other.username, '3');
    await screen.findByText('Waiting for connection');

    const stop = startAppWrites();
    setOnline(true);
    await act(() => appSync().flush());
    const list = await screen.findByRole('list', { name: 'Waiting to be sent' });
    await within(list).findByText('Not applied');
    expect(within(list).getByRole('alert').textContent).toBe(
      'The other party has not activated VIP Your money was not touched.',
    );
    expect(within(list).getByText('-3.00 USDT')).toBeTruthy();
    expect(screen.getByText(/Available 25.00 USDT/)).toBeTruthy();
    await userEvent.click(within(list).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Waiting to be sent' })).toBeNull());
    stop();
  });
});
