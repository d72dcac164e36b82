/**
 * Everything the PWA needs at start, called once from src/main.tsx: the service worker, the install prompt
 * capture (its event fires early) and the leader election for the engine's jobs and the sync.
 */
import { listenForInstallPrompt } from './install';
import { startLeaderElection } from './leader';
import { registerServiceWorker } from './register';

export function startPwa(): void {
  listenForInstallPrompt();
  startLeaderElection();
  void registerServiceWorker();
}
