/**
 * Start-up: theme first (no flash), then the active locale and the opened route's screen, then the app mounts
 * as soon as they are ready (SPEC.md §4) inside a browser router. index.html already shows the opened route's shell
 * (scripts/vite-shell.ts); React replaces it only once the route's screen has loaded, so the first React
 * frame is the same layout with the screen in it, never a splash in between.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { isDemoMode } from './api/config';
import { watchSiteConfig } from './api/site-config';
import { wireApi } from './app/api-wiring';
import { NavigationBridge, navigateOutside } from './app/navigation';
import { guardRedirect } from './app/guard';
import { REDIRECTS } from './app/paths';
import { AppRoutes, preloadScreen } from './app/routes';
import { PATHS } from './lib/paths';
import { applyTheme, watchSystemTheme } from './state/theme';
import { userStore } from './state/user-store';
import { initI18n, loadAllParts, storedLanguage } from './i18n';
import { startParts } from './i18n/parts';
import { afterFirstData, holdForFirstData } from './lib/after-first-data';
import { nextTask } from './lib/next-task';
import { keepSnapshots } from './lib/snapshot';
import { startPwa, startPwaEarly } from './pwa/bootstrap';
import './styles/global.css';

async function start(): Promise<void> {
  applyTheme();
  watchSystemTheme();
  // Evaluating the entry's modules is one task already; the screen's preload (resolving and linking its
  // chunks) starts the next one.
  await nextTask();
  // The screen the member will see: a guest on a member's route is shown the login form, not the route.
  const screen = preloadScreen(
    guardRedirect(location.pathname, userStore.get() !== null) ?? location.pathname,
  );
  // No mount delay (SPEC.md §4): the original app's 300 ms splash is the build-time shell now, which paints
  // at once; holding React back would only add its 300 ms to every first data row.
  // The opened route's locale parts (/home: two of five); the others load right after the first render.
  const [i18n] = await Promise.all([initI18n(storedLanguage(), startParts(location.pathname)), screen]);
  wireApi(navigateOutside);
  // Live mode: the server says whether it runs a simulation (the Demo badge) and its limits; asked now and on
  // each reconnect. The in-browser demo is a simulation by definition and needs no call.
  if (!isDemoMode()) watchSiteConfig();
  const root = document.getElementById('root');
  if (!root) return;
  // A transition: React renders the first tree in slices of a few milliseconds, yielding to the browser
  // between them, instead of one long task (total blocking time on a slow phone). The build-time shell stays
  // on screen until the commit, so nothing flashes meanwhile.
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <BrowserRouter>
            <NavigationBridge />
            <AppRoutes />
          </BrowserRouter>
        </I18nextProvider>
      </StrictMode>,
    );
  });
}

// /home's first data is the quotes (the engine's answer, or the device's last copy): the sync, the outbox's
// notices, the feed's socket machine and the service worker's install wait until they are on screen.
if ((REDIRECTS[location.pathname] ?? location.pathname) === PATHS.home) holdForFirstData();
startPwaEarly();
// The screen's figures are kept whenever the page is hidden, from the start: a member who leaves as soon as
// they show still finds them painted first next time (src/lib/snapshot.ts).
keepSnapshots();
void start().then(() => {
  void nextTask().then(startPwa);
  // The language's other parts, which every other screen waits for (src/app/routes.tsx asks for them itself
  // when the member moves on): on /home after its first data, so they do not share the link with it.
  const parts = afterFirstData().then(loadAllParts);
  // The device half of sync (src/sync) reconciles the outbox and replica when online. It starts once the
  // first screen has painted (on /home: its first data, src/lib/after-first-data.ts) and the page is idle, so its
  // code never competes with /home's first paint or first quote row.
  const startSync = () => {
    // Evaluating the sync's code (Dexie with it) and starting it are two tasks, not one.
    void import('./sync/app').then(async ({ startAppSync }) => {
      await nextTask();
      startAppSync();
    });
    // Answers to writes queued before (offline, or before a reload) reach the member as notices.
    // (Its notices use the wallet part's strings.)
    void parts.then(() => import('./sync/app-writes')).then(({ startAppWrites }) => startAppWrites());
  };
  void afterFirstData().then(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(startSync, { timeout: 5_000 });
    else setTimeout(startSync, 2_000);
  });
});
