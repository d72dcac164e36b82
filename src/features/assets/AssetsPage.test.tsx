import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatMicro, parseAmount } from '../../../engine/index';
import { engineCall, testClock, testEngine } from '../../../tests/app/test-engine';
import { renderApp } from '../../app/test-utils';
import { preloadScreen } from '../../app/routes';
import { userStore } from '../../state/user-store';
import { SCREENS } from '../../app/paths';
import { appSync } from '../../sync/app';
import { cursorKey, pulledAtKey } from '../../sync/db';
import { buyVip, fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

beforeAll(wireTestApi);
afterEach(cleanup);

describe('/user, the Assets tab', () => {
  it('shows total, balance, available and frozen exactly, the VIP badge, credit score and real-name status', async () => {
    const member = await fundedMember('as', '1234.5');
    await buyVip(member, 2, SECRETS.key);
    await renderApp('/user', { user: member });
    // The layout is there at once with "--" in place of figures (no layout shift when they arrive).
    const grid = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.balance-grid');
      if (!found || found.textContent?.includes('--')) throw new Error('balances not shown yet');
      return found;
    });
    expect(document.querySelector('.hero-amount')?.textContent).toBe('1,234.50 USDT');
    // The total is the screen's first data for Element Timing (issue 25; its "--" was not marked).
    expect(document.querySelector('.hero-amount [elementtiming="balance"]')?.textContent).toBe('1,234.50');
    expect(grid.textContent).toBe('Balance1,234.50Available734.50Frozen500.00');
    expect(screen.getByRole('link', { name: 'Membership level VIP2' }).getAttribute('href')).toBe(
      '/user/vip',
    );
    expect(screen.getByText('Not verified')).toBeTruthy();
    expect(screen.getByText('Credit score').nextElementSibling?.textContent).toMatch(/^\d+$/);
    // The locally kept user info follows the server (SPEC.md §3), so /home shows the same balance.
    await waitFor(() => expect(userStore.get()?.vip).toBe('vip2'));
    expect(userStore.get()?.balance).toBe('1234.5');
  });

  it("a returning member's figures come from the device in the first frame (read before the first render)", async () => {
    const member = await fundedMember('warm', '42');
    await renderApp('/user', { user: member });
    await waitFor(() => expect(document.querySelector('.hero-amount')?.textContent).toBe('42.00 USDT'));
    cleanup();
    // Start-up as main.tsx does it: the screen's code and its device read, then the first render.
    userStore.set(member);
    await preloadScreen('/user');
    await renderApp('/user', { user: member });
    expect(document.querySelector('.hero-amount')?.textContent).toBe('42.00 USDT');
    expect(document.querySelector('.vip-badge-placeholder')).toBeNull();
    // The account cards' figures too, read in the same snapshot as the profile's.
    expect(document.querySelector('.account-card .account-value')?.textContent).toBe('42.00 USDT');
  });

  it('a first pull half way (the member\'s row, not yet the balances) shows "--", never a zero total', async () => {
    const member = await fundedMember('half', '42');
    await renderApp('/user', { user: member });
    await waitFor(() => expect(document.querySelector('.hero-amount')?.textContent).toBe('42.00 USDT'));
    cleanup();
    // The device as a first pull leaves it half way: the member's row, no balances, no completed pull.
    const { db } = appSync();
    await db.replica.where('[memberId+table]').equals([member.id, 'balances']).delete();
    await db.meta.bulkDelete([cursorKey(member.id), pulledAtKey(member.id)]);
    const shown: string[] = [];
    const observer = new MutationObserver(() => {
      const text = document.querySelector('.hero-amount')?.textContent;
      if (text && shown.at(-1) !== text) shown.push(text);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    userStore.set(member);
    await preloadScreen('/user');
    await renderApp('/user', { user: member });
    expect(document.querySelector('.hero-amount')?.textContent).toBe('-- USDT');
    // The pull starts over and brings the balances: the figure, and no "0.00" before it.
    await waitFor(() => expect(document.querySelector('.hero-amount')?.textContent).toBe('42.00 USDT'));
    observer.disconnect();
    expect(shown.filter((t) => t !== '-- USDT' && t !== '42.00 USDT')).toEqual([]);
  });

  it('links every /user/* function and record list, one entry per kind', async () => {
    const member = await fundedMember('links');
    await renderApp('/user', { user: member });
    await screen.findByRole('heading', { name: 'Records' });
    const hrefs = new Set([...document.querySelectorAll('main a')].map((a) => a.getAttribute('href')));
    const wanted = SCREENS.map((s) => s.path).filter(
      (p) =>
        (p.startsWith('/user/') || p.startsWith('/order/') || p === '/pay/record') &&
        p !== '/user/bankAdd' &&
        // The same withdrawals list as /order/withdrawRecord (with a "New withdrawal" button): one entry.
        p !== '/order/withdraw',
    );
    for (const path of wanted) expect(hrefs.has(path), path).toBe(true);
    expect(hrefs.has('/order/withdraw')).toBe(false);
  });

  it("today's PnL starts at 00:00 UTC of the engine's clock (the demo's fast-forwarded day), not the device's", async () => {
    // The test engine's clock is on 2026-01-05, months from the device's: a position opened and closed on the
    // engine's day counts today, and no longer once the engine's clock has moved on a day.
    const member = await fundedMember('day', '1000');
    const auth = { id: member.id, token: member.token };
    await engineCall('/api/account/transfer', { from: 'cash', to: 'contract', amount: '500' }, auth);
    const order = { symbol: 'BTC/USDT', market: 'contract', type: 'market', volume: '0.001' } as const;
    const opened = await engineCall(
      '/api/order/place',
      { ...order, side: 'open_long', leverage: 1, marginMode: 'cross' },
      auth,
    );
    const closed = await engineCall('/api/order/place', { ...order, side: 'close_long' }, auth);
    if (closed.pnl === null) throw new Error('a closed position has its pnl');
    const signed = (v: string) => (v.startsWith('-') ? -parseAmount(v.slice(1)) : parseAmount(v));
    const expected = signed(closed.pnl) - parseAmount(opened.fee) - parseAmount(closed.fee);
    expect(expected).not.toBe(0n);
    await renderApp('/user', { user: member });
    const today = () => document.querySelector<HTMLDataElement>('.today-pnl data')?.value;
    await waitFor(() => expect(today()).toBe(formatMicro(expected)));
    cleanup();

    testClock.advance(24 * 3_600_000);
    await (await testEngine()).settle();
    await renderApp('/user', { user: member });
    await waitFor(() => expect(today()).toBe('0'));
  });

  it('one card per account, adding up exactly to the total; the hide switch is remembered on the device', async () => {
    const member = await fundedMember('ov', '1000.123456');
    const auth = { id: member.id, token: member.token };
    await engineCall('/api/account/transfer', { from: 'cash', to: 'contract', amount: '300.1' }, auth);
    await engineCall('/api/account/transfer', { from: 'cash', to: 'fund', amount: '0.000001' }, auth);
    await renderApp('/user', { user: member });
    const values = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLDataElement>('.account-value data')].map(
        (d) => d.value,
      );
      if (found.length !== 5 || found[2] === '0') throw new Error('cards not shown yet');
      return found;
    });
    expect(values).toEqual(['700.023455', '0.000001', '300.1', '0', '0']);
    const total = document.querySelector<HTMLDataElement>('.hero-amount data')!.value;
    const sum = values.reduce((acc, v) => acc + parseAmount(v), 0n);
    expect(parseAmount(total)).toBe(sum);
    expect(total).toBe('1000.123456');
    expect(screen.getByRole('heading', { name: 'Contracts' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Up/Down' })).toBeTruthy();
    expect(document.querySelector('.today-pnl')?.textContent).toBe("Today's PnL 0.00 USDT");

    await userEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(document.querySelector('.hero-amount')?.textContent).toBe('**** USDT');
    expect(document.querySelectorAll('.account-value data')).toHaveLength(0);
    expect(localStorage.getItem('strata.hideBalances')).toBe('1');
    cleanup();
    await renderApp('/user', { user: member });
    expect(await screen.findByRole('button', { name: 'Show' })).toBeTruthy();
    expect(document.querySelector('.hero-amount')?.textContent).toBe('**** USDT');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(localStorage.getItem('strata.hideBalances')).toBeNull();
  });
});
