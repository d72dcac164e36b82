/**
 * Everything the PWA needs at start, called once from src/main.tsx: the install prompt capture (its event
 * fires early, so startPwaEarly runs first), the leader election for the engine's jobs and the sync, the service worker, and persistent
 * storage as soon as a member is logged in (their replica is then worth protecting from eviction).
 */
import { userStore } from '../state/user-store';
import { afterFirstData } from '../lib/after-first-data';
import { whenSettled } from '../lib/next-task';
import { onBroadcast } from './broadcast';
import { listenForInstallPrompt } from './install';
import { startLeaderElection } from './leadership';
import { registerServiceWorker } from './register';
import { requestPersistence } from './storage';

/** Asks for persistence when a member is (or becomes) logged in; asking again is harmless but pointless. */
export function persistAfterLogin(
  store: { get(): unknown; subscribe(listener: () => void): () => void } = userStore,
  request: () => Promise<unknown> = requestPersistence,
): () => void {
  let asked = false;
  const check = () => {
    if (asked || store.get() == null) return;
    asked = true;
    void request();
  };
  check();
  return store.subscribe(check);
}

/** A newer version is upgrading the demo engine's database (engine-host.ts): reload into it. */
export function reloadOnUpgrade(reload: () => void = () => location.reload()): () => void {
  return onBroadcast((message) => {
    if (message.type === 'reload') reload();
  });
}

/** What must listen from the page's first moments: the install prompt's event can fire before the app renders. */
export function startPwaEarly(): void {
  listenForInstallPrompt();
}

/**
 * The rest, once the first screen has rendered: opening the BroadcastChannel and the election's lock are
 * each a few milliseconds of main-thread work that a slow phone would otherwise add to the start-up's longest
 * task (total blocking time), and nothing on the first screen waits for them.
 */
export function startPwa(): void {
  reloadOnUpgrade();
  startLeaderElection();
  persistAfterLogin();
  // Installing the worker downloads, hashes and stores the whole app (~120 files): it waits until the first
  // screen has settled rather than compete with it for a slow phone's CPU.
  // On /home the quotes come first (src/lib/after-first-data.ts): a first install on a slow link would otherwise
  // download the whole app alongside them.
  void afterFirstData()
    .then(() => whenSettled())
    .then(() => registerServiceWorker());
}
