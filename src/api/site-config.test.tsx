/**
 * A live build says "Demo" when its server runs a simulation (getsite's `demo`), from the first paint of the
 * next start too, and stops saying so when the server says it is real.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import type { SiteLimits } from '../../engine/index';
import { DemoBadge } from '../app/DemoBadge';
import { initI18n, i18next } from '../i18n';
import { api } from './index';
import {
  SITE_KEY,
  isSiteDemo,
  loadSiteConfig,
  resetSiteConfig,
  siteLimits,
  watchSiteConfig,
} from './site-config';

const LIMITS = { minTransfer: '1', minWithdraw: '10' } as unknown as SiteLimits;

function answer(demo: boolean) {
  return vi.spyOn(api, 'call').mockImplementation((async (path: string) => {
    if (path !== '/api/site/getsite') throw new Error(`unexpected ${path}`);
    return { walletAddress: '', ercAddress: '', customerservice: '', demo, quickBuy: false, limits: LIMITS };
  }) as typeof api.call);
}

async function badge() {
  if (!i18next.isInitialized) await initI18n('en-US');
  return render(
    <I18nextProvider i18n={i18next}>
      <DemoBadge />
    </I18nextProvider>,
  );
}

afterEach(cleanup);

describe('site config in a live build', () => {
  beforeEach(() => {
    vi.stubEnv('VITE_API_MODE', 'live');
    resetSiteConfig();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    resetSiteConfig();
  });

  it('shows no badge before the server has answered, then the badge once getsite says demo', async () => {
    const spy = answer(true);
    await badge();
    expect(screen.queryByRole('button', { name: /demo/i })).toBeNull();
    await act(() => loadSiteConfig());
    expect(spy).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('button', { name: /demo/i })).toBeTruthy();
    expect(isSiteDemo()).toBe(true);
    expect(siteLimits()).toEqual(LIMITS);
    // Kept for the next start, where index.html's head script reads it before first paint.
    expect(JSON.parse(localStorage.getItem(SITE_KEY) ?? 'null')).toEqual({ demo: true, limits: LIMITS });
    expect(document.documentElement.dataset['siteDemo']).toBe('');
  });

  it('a real server: no badge, no simulated mark on the page', async () => {
    answer(false);
    await act(() => loadSiteConfig());
    await badge();
    expect(screen.queryByRole('button', { name: /demo/i })).toBeNull();
    expect(isSiteDemo()).toBe(false);
    expect(document.documentElement.dataset['siteDemo']).toBeUndefined();
  });

  it('asks again when the connection returns, and follows a server that changed mode', async () => {
    const spy = answer(true);
    watchSiteConfig();
    await vi.waitFor(() => expect(isSiteDemo()).toBe(true));
    spy.mockRestore();
    answer(false);
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await loadSiteConfig();
    });
    expect(isSiteDemo()).toBe(false);
  });

  it('a failed call leaves the last answer and is asked again next time', async () => {
    answer(true);
    await loadSiteConfig();
    vi.restoreAllMocks();
    const failing = vi.spyOn(api, 'call').mockRejectedValue({ code: 0, msg: 'offline' });
    resetSiteConfig();
    localStorage.setItem(SITE_KEY, JSON.stringify({ demo: true, limits: LIMITS }));
    await loadSiteConfig();
    await loadSiteConfig();
    expect(failing).toHaveBeenCalledTimes(2);
  });
});

describe('site config in the demo build', () => {
  it('is a demo without asking anyone', async () => {
    resetSiteConfig();
    const spy = vi.spyOn(api, 'call');
    expect(isSiteDemo()).toBe(true);
    await badge();
    expect(screen.getByRole('button', { name: /demo/i })).toBeTruthy();
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
