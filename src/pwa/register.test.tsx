import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpdatePrompt } from './UpdatePrompt';
import {
  applyUpdate,
  registerServiceWorker,
  resetRegistrationForTests,
  updateWaiting,
  warmRuntimeCache,
  type WorkboxLike,
} from './register';
import { en, renderWithI18n } from './test-i18n';

type Listener = (event: { isUpdate?: boolean }) => void;

function fakeWorkbox() {
  const listeners = new Map<string, Listener[]>();
  const wb = {
    addEventListener: (type: string, listener: Listener) => {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    register: vi.fn(async () => undefined),
    update: vi.fn(async () => undefined),
    messageSkipWaiting: vi.fn(),
    fire(type: string, event: { isUpdate?: boolean } = {}) {
      for (const listener of listeners.get(type) ?? []) listener(event);
    },
  };
  return wb satisfies WorkboxLike;
}

// jsdom has no service workers; registration only checks that the API exists.
Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });

afterEach(() => {
  cleanup();
  resetRegistrationForTests();
  vi.restoreAllMocks();
});

describe('service worker updates', () => {
  it('shows "a new version is available" only once a new worker is waiting', async () => {
    const wb = fakeWorkbox();
    const stop = await registerServiceWorker({ workbox: wb, reload: vi.fn() });
    renderWithI18n(<UpdatePrompt />);
    expect(screen.queryByText(en.updateAvailable)).toBeNull();
    act(() => wb.fire('waiting'));
    expect(screen.getByRole('alert').textContent).toContain(en.updateAvailable);
    stop();
  });

  it('never skips waiting by itself: Reload asks the waiting worker, then the page reloads on control', async () => {
    const wb = fakeWorkbox();
    const reload = vi.fn();
    const stop = await registerServiceWorker({ workbox: wb, reload });
    act(() => wb.fire('waiting'));
    expect(wb.messageSkipWaiting).not.toHaveBeenCalled();

    renderWithI18n(<UpdatePrompt />);
    await userEvent.click(screen.getByRole('button', { name: en.reload }));
    expect(wb.messageSkipWaiting).toHaveBeenCalledOnce();
    expect(reload).not.toHaveBeenCalled();

    wb.fire('controlling', { isUpdate: true });
    expect(reload).toHaveBeenCalledOnce();
    stop();
  });

  it('does not reload when the first worker claims the page', async () => {
    const wb = fakeWorkbox();
    const reload = vi.fn();
    const stop = await registerServiceWorker({ workbox: wb, reload });
    wb.fire('controlling', { isUpdate: false });
    expect(reload).not.toHaveBeenCalled();
    stop();
  });

  it('registers once and checks for updates periodically', async () => {
    vi.useFakeTimers();
    try {
      const wb = fakeWorkbox();
      const stop = await registerServiceWorker({ workbox: wb, updateEveryMs: 1_000 });
      await registerServiceWorker({ workbox: fakeWorkbox() });
      expect(wb.register).toHaveBeenCalledOnce();
      vi.advanceTimersByTime(3_000);
      expect(wb.update).toHaveBeenCalledTimes(3);
      stop();
      vi.advanceTimersByTime(3_000);
      expect(wb.update).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps working when registration fails', async () => {
    const wb = fakeWorkbox();
    wb.register.mockRejectedValueOnce(new Error('insecure context'));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(registerServiceWorker({ workbox: wb })).resolves.toBeTypeOf('function');
    expect(updateWaiting.get()).toBe(false);
    applyUpdate();
  });
});

describe('warming the runtime cache after the first install', () => {
  it('fetches again only the on-demand locale and chart chunks', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(''));
    const entries = [
      '/assets/index-AbC123.js',
      '/assets/locale-zh-CN-Dca8jEjB.js',
      '/assets/chart-5mHjphTw.js',
      '/api/market/list',
      '/pwa-192x192.png',
    ].map((path) => ({ name: new URL(path, location.href).href }) as PerformanceEntry);
    const warmed = warmRuntimeCache(entries).map((url) => new URL(url).pathname);
    expect(warmed).toEqual(['/assets/locale-zh-CN-Dca8jEjB.js', '/assets/chart-5mHjphTw.js']);
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
});
