/**
 * The app's API client instance. The transport follows VITE_API_MODE; credentials and error presentation
 * are wired by the app at start-up (src/app/api-wiring.ts), so this module knows nothing of React.
 */
import type { ApiError } from './api-error';
import { SYNCABLE_PATHS } from '../../engine/index';
import { createClient, type Credentials } from './client';
import { deviceId } from './device-id';
import { apiMode } from './config';
import { createHttpTransport } from './http-transport';
import { createDemoWorkerTransport, type DemoControls, type WorkerTransport } from './transport-worker';
import type { Transport } from './transport';

let credentials: () => Credentials | null = () => null;
let onError: (error: ApiError, silent: boolean) => void = () => undefined;
let transport: Transport | WorkerTransport | undefined;

export function configureApi(wiring: {
  credentials: () => Credentials | null;
  onError: (error: ApiError, silent: boolean) => void;
}): void {
  credentials = wiring.credentials;
  onError = wiring.onError;
}

const writeListeners = new Set<(path: string) => void>();
const WRITES = new Set<string>(SYNCABLE_PATHS);

/** Follows the member's successful writes (their path); answers the function that stops following. */
export function onWrite(listener: (path: string) => void): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

export const api = createClient({
  transport: () => (transport ??= apiMode() === 'live' ? createHttpTransport() : createDemoWorkerTransport()),
  credentials: () => credentials(),
  deviceId,
  onError: (error, silent) => onError(error, silent),
  onAnswer: (path) => {
    if (!WRITES.has(path)) return;
    for (const listener of [...writeListeners]) listener(path);
  },
});

/**
 * Demo mode's tools (the simulated clock, fast-forward, reset), or null in live mode or when the transport
 * has none (tests). Screens read the clock for countdowns measured on the server's time.
 */
export function demoControls(): DemoControls | null {
  if (apiMode() === 'live' || (!transport && typeof Worker === 'undefined')) return null;
  transport ??= createDemoWorkerTransport();
  return 'demo' in transport ? transport.demo : null;
}

/**
 * Presents an error the client did not present itself (an answer inside /api/sync/push's results), exactly
 * as a failed call's would be: toast, 401 dialog, and so on.
 */
export function reportError(error: ApiError, silent = false): void {
  onError(error, silent);
}

export { ApiError, isApiError } from './api-error';
export type { CallOptions } from './client';
export type { DemoControls } from './transport-worker';
export { describeError, type ErrorDescription } from './errors';
export { resolveImage, DEFAULT_IMAGE } from './images';
