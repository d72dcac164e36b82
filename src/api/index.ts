/**
 * The app's API client instance. The transport follows VITE_API_MODE; credentials and error presentation
 * are wired by the app at start-up (src/app/api-wiring.ts), so this module knows nothing of React.
 */
import type { ApiError } from './api-error';
import { createClient, type Credentials } from './client';
import { apiMode } from './config';
import { createHttpTransport } from './http-transport';
import { createDemoWorkerTransport } from './transport-worker';
import type { Transport } from './transport';

let credentials: () => Credentials | null = () => null;
let onError: (error: ApiError, silent: boolean) => void = () => undefined;
let transport: Transport | undefined;

export function configureApi(wiring: {
  credentials: () => Credentials | null;
  onError: (error: ApiError, silent: boolean) => void;
}): void {
  credentials = wiring.credentials;
  onError = wiring.onError;
}

export const api = createClient({
  transport: () => (transport ??= apiMode() === 'live' ? createHttpTransport() : createDemoWorkerTransport()),
  credentials: () => credentials(),
  onError: (error, silent) => onError(error, silent),
});

export { ApiError, isApiError } from './api-error';
export type { CallOptions } from './client';
export { describeError, type ErrorDescription } from './errors';
export { resolveImage, DEFAULT_IMAGE } from './images';
