import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InstallEntry } from './InstallEntry';
import { OnlineIndicator } from './OnlineIndicator';
import { StorageInfo } from './StorageInfo';
import { installPlatform, listenForInstallPrompt, resetInstallForTests } from './install';
import { en, renderWithI18n } from './test-i18n';

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { value: online, configurable: true });
  dispatchEvent(new Event(online ? 'online' : 'offline'));
}

function installPromptEvent(outcome: 'accepted' | 'dismissed') {
  const event = new Event('beforeinstallprompt', { cancelable: true });
  const prompt = vi.fn(async () => undefined);
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome, platform: 'web' }) });
  return { event, prompt };
}

afterEach(() => {
  cleanup();
  setOnline(true);
  resetInstallForTests();
});

describe('OnlineIndicator', () => {
  it('announces going offline and coming back in a polite live region', () => {
    renderWithI18n(<OnlineIndicator />);
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    act(() => setOnline(false));
    expect(region.textContent).toBe(en.offline);
    act(() => setOnline(true));
    expect(region.textContent).toBe('');
  });
});

describe('InstallEntry', () => {
  it('offers the browser prompt once beforeinstallprompt arrived, and hides it after install', async () => {
    listenForInstallPrompt(window);
    renderWithI18n(<InstallEntry />);
    const { event, prompt } = installPromptEvent('accepted');
    act(() => {
      dispatchEvent(event);
    });
    expect(event.defaultPrevented).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: en.install }));
    expect(prompt).toHaveBeenCalledOnce();
    expect(await screen.findByText(en.installed)).toBeTruthy();
  });

  it('keeps the entry usable when the member dismisses the prompt', async () => {
    listenForInstallPrompt(window);
    renderWithI18n(<InstallEntry />);
    act(() => {
      dispatchEvent(installPromptEvent('dismissed').event);
    });
    await userEvent.click(screen.getByRole('button', { name: en.install }));
    // The event is spent: the entry falls back to instructions.
    expect(await screen.findByRole('button', { name: en.installHow })).toBeTruthy();
  });

  it('explains how to install when the browser never offered a prompt', async () => {
    listenForInstallPrompt(window);
    renderWithI18n(<InstallEntry />);
    const how = screen.getByRole('button', { name: en.installHow });
    expect(how.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(how);
    expect(how.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText(en.installOther)).toBeTruthy();
  });

  it('gives iOS Safari its Share -> Add to Home Screen path', () => {
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Safari';
    const ipad = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.0 Safari';
    expect(installPlatform(iphone, 5)).toBe('ios');
    expect(installPlatform(ipad, 5)).toBe('ios');
    expect(installPlatform(ipad, 0)).toBe('other');
    expect(installPlatform('Mozilla/5.0 (Linux; Android 15) Chrome/140 Mobile', 5)).toBe('other');
  });

  it('says so when Strata already runs from the home screen', () => {
    Object.defineProperty(navigator, 'standalone', { value: true, configurable: true });
    try {
      listenForInstallPrompt(window);
      renderWithI18n(<InstallEntry />);
      expect(screen.getByText(en.installed)).toBeTruthy();
      expect(screen.queryByRole('button')).toBeNull();
    } finally {
      Object.defineProperty(navigator, 'standalone', { value: undefined, configurable: true });
    }
  });
});

describe('StorageInfo', () => {
  it('shows usage and quota in the member language, and persistence', async () => {
    const read = async () => ({ usage: 1_234_567, quota: 2_000_000_000, persisted: true });
    renderWithI18n(<StorageInfo read={read} />);
    expect(await screen.findByText('Storage used on this device: 1.2 MB of 2 GB')).toBeTruthy();
    expect(screen.getByText(en.storagePersisted)).toBeTruthy();
  });

  it('says when the browser cannot tell', async () => {
    renderWithI18n(<StorageInfo read={async () => undefined} />);
    expect(await screen.findByText(en.storageUnknown)).toBeTruthy();
  });
});
