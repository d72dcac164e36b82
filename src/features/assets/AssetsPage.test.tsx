import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../../app/test-utils';
import { preloadScreen } from '../../app/routes';
import { userStore } from '../../state/user-store';
import { SCREENS } from '../../app/paths';
import { buyVip, fundedMember, SECRETS, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock(
  '../../api/transport-worker',
  async () => (await import('../../../tests/app/test-engine')).workerModule,
);
vi.mock(
  '../../api/engine-transport',
  async () => (await import('../../../tests/app/test-engine')).engineModule,
);

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
  });

  it('links every /user/* function and record list', async () => {
    const member = await fundedMember('links');
    await renderApp('/user', { user: member });
    await screen.findByRole('heading', { name: 'Records' });
    const hrefs = new Set([...document.querySelectorAll('main a')].map((a) => a.getAttribute('href')));
    const wanted = SCREENS.map((s) => s.path).filter(
      (p) =>
        (p.startsWith('/user/') || p.startsWith('/order/') || p === '/pay/record') && p !== '/user/bankAdd',
    );
    for (const path of wanted) expect(hrefs.has(path), path).toBe(true);
  });
});
