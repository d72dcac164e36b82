import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp, TEST_USER } from './test-utils';
import { popupStore } from '../state/popup-store';
import { TABS } from './paths';

// A screen whose code cannot load (offline before it was ever cached): its import rejects.
vi.mock('../features/account/HelpPage', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

afterEach(() => {
  cleanup();
  popupStore.close();
});

describe('layout', () => {
  it('renders the five bottom tabs with the current one marked aria-current="page"', async () => {
    await renderApp('/market', { user: TEST_USER });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Home', 'Quotes', 'Trade', 'Finance', 'Assets']);
    expect(links.map((l) => l.getAttribute('href'))).toEqual(TABS.map((t) => t.path));
    expect(within(nav).getByRole('link', { name: 'Quotes' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Home' }).hasAttribute('aria-current')).toBe(false);
  });

  it('shows the demo badge on every screen, opening an explanation dialog', async () => {
    for (const path of ['/home', '/login', '/user/vip', '/nowhere']) {
      await renderApp(path, { user: path === '/login' ? null : TEST_USER });
      expect(await screen.findByRole('button', { name: 'Demo mode: learn more' })).toBeTruthy();
      cleanup();
    }
    await renderApp('/home');
    await userEvent.click(await screen.findByRole('button', { name: 'Demo mode: learn more' }));
    const dialog = await screen.findByRole('dialog', { name: 'Demo mode' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sets the page title to the translated route title then " - Strata"', async () => {
    await renderApp('/user/vip', { user: TEST_USER });
    await waitFor(() => expect(document.title).toBe('Membership level - Strata'));
  });

  // Screens keep replacing their placeholders, so this does not rely on a coming-soon heading.
  it('has a back button and no tabs off the tab screens', async () => {
    await renderApp('/user/vip', { user: TEST_USER });
    expect(await screen.findByRole('heading', { level: 1, name: 'Membership level' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });

  it('has landmarks and a skip link to the main content', async () => {
    await renderApp('/home');
    await screen.findByRole('heading', { name: 'Your USDT, in one place' });
    expect(screen.getByRole('main').getAttribute('id')).toBe('main');
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Skip to main content' }).getAttribute('href')).toBe('#main');
  });
});

describe('routing', () => {
  it('/ lands on /home', async () => {
    const { router } = await renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('/finance goes to /finance/finance', async () => {
    const { router } = await renderApp('/finance', { user: TEST_USER });
    await waitFor(() => expect(router.state.location.pathname).toBe('/finance/finance'));
  });

  it('/redirect/{path} forwards to the path with its search string', async () => {
    const { router } = await renderApp('/redirect/user/vip?from=x', { user: TEST_USER });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/vip'));
    expect(router.state.location.search).toBe('?from=x');
  });

  it('logged out, /user goes to /login; logged in, /login goes to /home via /', async () => {
    const out = await renderApp('/user');
    await waitFor(() => expect(out.router.state.location.pathname).toBe('/login'));
    cleanup();
    const inside = await renderApp('/login', { user: TEST_USER });
    await waitFor(() => expect(inside.router.state.location.pathname).toBe('/home'));
  });

  it('a screen whose code cannot load says so in the shell and offers to try again', async () => {
    await renderApp('/user/help', { user: TEST_USER });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'This screen could not be loaded. Check your connection and try again.',
    );
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
    // The shell stays: the member can still use the top bar.
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
  });

  it('an unknown path shows the translated 404 page to a member', async () => {
    await renderApp('/no/such/page', { user: TEST_USER });
    expect(await screen.findByRole('heading', { name: 'Page not found', level: 2 })).toBeTruthy();
  });
});

describe('/home/more', () => {
  it('lists every function of SPEC.md §1 by label', async () => {
    await renderApp('/home/more');
    await screen.findByRole('heading', { name: 'Funds' });
    for (const label of [
      'Mining centre',
      'Quick coin purchase',
      'Credit score',
      'Real-name authentication',
      'Bank cards',
      'Downline earnings',
      'Help centre',
      'Online customer service',
      'Language',
      'Theme',
      'Deposit',
      'Withdraw',
      'Transfer',
      'VIP',
      'Managed finance',
      'Markets',
      'Spot trading',
      'Contracts',
      'Up/Down',
    ])
      expect(screen.getByText(label)).toBeTruthy();
  });

  it('opens the customer service popup and the language picker from their entries', async () => {
    await renderApp('/home/more');
    await userEvent.click(await screen.findByRole('button', { name: /Online customer service/ }));
    expect(screen.getByRole('dialog', { name: 'Customer service' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: /^Language/ }));
    expect(screen.getByRole('dialog', { name: 'Language' })).toBeTruthy();
  });

  it("the language switch is in the header of the first screens, each language named in itself, the browser's first", async () => {
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['ko-KR', 'en-US'] });
    try {
      await renderApp('/home');
      const header = document.querySelector('header.topbar') as HTMLElement;
      await userEvent.click(within(header).getByRole('button', { name: 'Language' }));
      const dialog = screen.getByRole('dialog', { name: 'Language' });
      const names = within(dialog)
        .getAllByRole('button')
        .map((b) => [b.textContent, b.getAttribute('lang')]);
      expect(names[0]).toEqual(['한국어', 'ko-KR']);
      expect(names).toContainEqual(['Deutsch', 'de-DE']);
      expect(names).toContainEqual(['العربية', 'ar-SA']);
      expect(names).toContainEqual(['简体中文', 'zh-CN']);
      await userEvent.keyboard('{Escape}');
      cleanup();
      // Other screens keep their title's room: no switch on another tab or deeper in the app.
      await renderApp('/market', { user: TEST_USER });
      expect(
        within(document.querySelector('header.topbar') as HTMLElement).queryByRole('button', {
          name: 'Language',
        }),
      ).toBeNull();
      cleanup();
      await renderApp('/user/help', { user: TEST_USER });
      expect(
        within(document.querySelector('header.topbar') as HTMLElement).queryByRole('button', {
          name: 'Language',
        }),
      ).toBeNull();
    } finally {
      Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['en-US'] });
    }
  });
});
