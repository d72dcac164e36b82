import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import type { ReactNode } from 'react';
import { initI18n, i18next } from '../../i18n';
import { STORAGE_KEYS } from '../../lib/storage';
import { toastStore } from '../../state/toast-store';
import { Toaster } from '../Toaster';
import { LanguagePopup } from './LanguagePopup';
import { ServicePopup } from './ServicePopup';
import { ThemePopup } from './ThemePopup';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../api', () => ({ api: { call } }));

beforeAll(async () => {
  await initI18n('en-US');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  for (const t of toastStore.get()) toastStore.dismiss(t.id);
});

const wrap = (node: ReactNode) =>
  render(
    <I18nextProvider i18n={i18next}>
      {node}
      <Toaster />
    </I18nextProvider>,
  );

describe('language picker', () => {
  it('lists the twenty languages in their own names', () => {
    wrap(<LanguagePopup onClose={() => undefined} reload={() => undefined} />);
    const names = screen.getAllByRole('button').filter((b) => b.getAttribute('lang'));
    expect(names).toHaveLength(20);
    expect(screen.getByRole('button', { name: 'العربية' }).getAttribute('lang')).toBe('ar-SA');
    expect(screen.getByRole('button', { name: 'English' }).getAttribute('aria-current')).toBe('true');
  });

  it('stores the choice and reloads the page', async () => {
    const reload = vi.fn();
    wrap(<LanguagePopup onClose={() => undefined} reload={reload} />);
    await userEvent.click(screen.getByRole('button', { name: '日本語' }));
    expect(localStorage.getItem(STORAGE_KEYS.lang)).toBe('ja-JP');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('theme', () => {
  it('switches light, dark and system, storing the choice and setting data-theme on <html>', async () => {
    wrap(<ThemePopup onClose={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
    expect(screen.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Light' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    await userEvent.click(screen.getByRole('button', { name: 'Follow system' }));
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBe('system');
    // jsdom has no matchMedia: following the system falls back to light.
    expect(document.documentElement.dataset.theme).toBe('light');
  });
});

describe('customer service', () => {
  it('shows the contact from the site config and really copies it', async () => {
    call.mockResolvedValueOnce({
      customerservice: 'support@strata.example',
      walletAddress: '',
      ercAddress: '',
    });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    wrap(<ServicePopup onClose={() => undefined} />);
    expect(await screen.findByText('support@strata.example')).toBeTruthy();
    expect(call).toHaveBeenCalledWith('/api/site/getsite', undefined, { auth: false, silent: true });
    await userEvent.click(screen.getByRole('button', { name: 'Copy contact' }));
    expect(writeText).toHaveBeenCalledWith('support@strata.example');
    expect(screen.getByRole('status').textContent).toContain('Copied');
  });

  it('says so when the contact cannot be loaded', async () => {
    call.mockRejectedValueOnce(new Error('down'));
    wrap(<ServicePopup onClose={() => undefined} />);
    expect(await screen.findByText('Customer service contact is not available right now.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy contact' })).toBeNull();
  });

  it('closes on Escape and keeps focus inside (focus trap)', async () => {
    call.mockResolvedValueOnce({ customerservice: 'x' });
    const onClose = vi.fn();
    wrap(<ServicePopup onClose={onClose} />);
    await screen.findByText('x');
    const dialog = screen.getByRole('dialog');
    const buttons = screen.getAllByRole('button');
    act(() => buttons.at(-1)?.focus());
    await userEvent.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});
