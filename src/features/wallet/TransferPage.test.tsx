import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../app/test-utils';
import { sentPaths } from '../auth/test-engine';
import { buyVip, fundedMember, SECRETS, wireTestApi } from './test-wallet';

vi.mock('../../api/transport-worker', async () => (await import('../auth/test-engine')).workerModule);
vi.mock('../../api/engine-transport', async () => (await import('../auth/test-engine')).engineModule);

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

    await userEvent.type(field('Recipient'), member.username);
    await userEvent.type(field('Amount'), '0.5');
    await next();
    expect(screen.getByText('You cannot transfer to yourself')).toBeTruthy();
    expect(screen.getByText('The amount is at least 1 USDT')).toBeTruthy();

    await waitFor(() => expect(screen.getByText(/Available 10.00 USDT/)).toBeTruthy());
    await userEvent.clear(field('Amount'));
    await userEvent.type(field('Amount'), '11');
    await next();
    expect(screen.getByText('The amount is more than your available balance')).toBeTruthy();
    expect(document.activeElement).toBe(field('Recipient'));
    expect(sentPaths.filter((p) => p === '/api/transfer/submit')).toEqual([]);
  });

  it('a recipient without VIP is refused by the server (3002), announced under the form', async () => {
    const other = await fundedMember('novip');
    await open('10');
    await userEvent.type(field('Recipient'), other.username);
    await userEvent.type(field('Amount'), '2');
    await next();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm transfer' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer now' }));
    const alert = await screen.findByText('The other party has not activated VIP', {
      selector: '.form-error',
    });
    expect(alert.getAttribute('role')).toBe('alert');
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
    expect(await screen.findByRole('heading', { name: 'Transfer complete' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/Available 12.50 USDT/)).toBeTruthy());
  });
});
