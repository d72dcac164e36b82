/**
 * Registers the service worker vite-plugin-pwa generates (dist/sw.js) through workbox-window and keeps the
 * "a new version is waiting" state for <UpdatePrompt>. Updates never activate by themselves: the member
 * presses Reload, the waiting worker is told to skip waiting, and the page reloads once it controls it.
 */
import { valueStore } from './store';

/** The parts of workbox-window's Workbox this module uses, so tests can hand in a fake. */
export interface WorkboxLike {
  addEventListener(type: 'waiting' | 'controlling', listener: (event: { isUpdate?: boolean }) => void): void;
  register(): Promise<ServiceWorkerRegistration | undefined>;
  update(): Promise<void>;
  messageSkipWaiting(): void;
}

export interface RegisterOptions {
  workbox?: WorkboxLike;
  reload?: () => void;
  /** How often a long-open (installed) app asks the server for a new version. */
  updateEveryMs?: number;
}

/** True while a newer version is installed and waiting for the member's consent. */
export const updateWaiting = valueStore(false);

let active: WorkboxLike | undefined;
let started = false;

/**
 * Chunks that load on demand (locales, the chart) are cached at run time, but on the very first visit they
 * were fetched before the worker existed. Asking for them again once it controls the page stores them, so
 * the member's language still renders on the first offline visit.
 */
export function warmRuntimeCache(
  entries: readonly PerformanceEntry[] = performance.getEntriesByType('resource'),
): string[] {
  const urls = entries
    .map((entry) => entry.name)
    .filter((url) =>
      /\/assets\/(locale-[\w-]+|chart)-[\w-]+\.js$/.test(new URL(url, location.href).pathname),
    );
  for (const url of urls) void fetch(url).catch(() => undefined);
  return urls;
}

/** Registers once per page; resolves to a function that stops the periodic update checks. */
export async function registerServiceWorker(options: RegisterOptions = {}): Promise<() => void> {
  const none = () => undefined;
  if (started || !('serviceWorker' in navigator)) return none;
  // vite-plugin-pwa emits the worker only in production builds (devOptions disabled).
  if (!options.workbox && import.meta.env.DEV) return none;
  started = true;
  // workbox-window loads here, after start-up, not on /home's critical path.
  const wb: WorkboxLike =
    options.workbox ?? new (await import('workbox-window')).Workbox('/sw.js', { scope: '/' });
  const reload = options.reload ?? (() => location.reload());
  active = wb;
  wb.addEventListener('waiting', () => updateWaiting.set(true));
  wb.addEventListener('controlling', (event) => {
    // A replacement took over (this tab's or another tab's Reload): this page's code is stale, so reload.
    // The first install (isUpdate false) claims the page without a reload and warms the runtime cache.
    if (event.isUpdate) reload();
    else warmRuntimeCache();
  });
  try {
    await wb.register();
  } catch (error) {
    // The app works without a worker (only offline opening is lost), so a failed registration is not fatal.
    console.warn('service worker registration failed', error);
    return none;
  }
  const check = () => void wb.update().catch(() => undefined);
  const timer = setInterval(check, options.updateEveryMs ?? 60 * 60 * 1000);
  addEventListener('online', check);
  return () => {
    clearInterval(timer);
    removeEventListener('online', check);
  };
}

/** The member pressed Reload: activate the waiting version; the 'controlling' handler reloads the page. */
export function applyUpdate(): void {
  active?.messageSkipWaiting();
}

/** For tests: forget the registration made by an earlier test. */
export function resetRegistrationForTests(): void {
  active = undefined;
  started = false;
  updateWaiting.set(false);
}
