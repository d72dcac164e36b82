import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderApp, TEST_USER } from '../../app/test-utils';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-market'));

afterEach(cleanup);

describe('/home', () => {
  it('greets a visitor with the demo disclaimer, log-in and sign-up, and six shortcuts', async () => {
    await renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'Your USDT, in one place' })).toBeTruthy();
    expect(screen.getByText('Demo: all balances, prices and chains are simulated.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    const shortcuts = screen.getByRole('heading', { name: 'Shortcuts' }).parentElement;
    expect(shortcuts?.querySelectorAll('a.shortcut')).toHaveLength(6);
  });

  it('shows a member their stored balance to the cent (never above it), the exact figure in its title', async () => {
    await renderApp('/home', { user: { ...TEST_USER, balance: '1234567.895' } });
    expect(await screen.findByRole('heading', { name: 'Hello, alice' })).toBeTruthy();
    expect(screen.getByText('1,234,567.89 USDT').getAttribute('title')).toBe('1,234,567.895 USDT');
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
  });

  it('shows live quotes (four pairs, each opening its K-line) linking to the quotes tab', async () => {
    await renderApp('/home');
    const quotes = await screen.findByRole('list', { name: 'Quotes' }, { timeout: 20_000 });
    expect(quotes.querySelectorAll('a.quote-row')).toHaveLength(4);
    expect(screen.getByRole('link', { name: 'All quotes' }).getAttribute('href')).toBe('/market');
  });
});
