/**
 * Member security on the device (docs/SPEC.md §10, API.md "Member security"): the member's security overview
 * (two-factor on or off, passkeys, the anti-phishing code), kept in the device cache with its time so screens
 * show it offline; and the browser half of passkeys through @simplewebauthn/browser (loaded on first use).
 * Security actions are online-only: a code or a passkey answer is good for seconds, never queued.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON as CreationOptions,
  PublicKeyCredentialRequestOptionsJSON as RequestOptions,
} from '@simplewebauthn/browser';
import type { BodyOf, DataOf, PasskeyAnswer, SecurityOverview } from '../../engine/index';
import { api, isApiError } from '../api';
import { useCached, type CachedResult } from '../sync/cache';

export type { SecurityOverview } from '../../engine/index';

/** 6101: this call needs the second factor (API.md). */
export const SECOND_FACTOR_REQUIRED = 6101;

export type PasskeyAction = BodyOf<'/api/security/passkey/challenge'>['action'];

/** The second-factor fields of a gated call: `{ code }`, `{ passkey }`, or nothing. */
export type SecondFactor = { code: string } | { passkey: PasskeyAnswer } | Record<string, never>;

export const OVERVIEW_KEY = 'security:overview';

/** The member's security overview: the device's copy at once, refreshed from the server. */
export function useSecurityOverview(refresh?: string | number): CachedResult<SecurityOverview> {
  return useCached(OVERVIEW_KEY, () => api.call('/api/security/overview', undefined, { silent: true }), {
    member: true,
    ...(refresh === undefined ? {} : { refresh }),
  });
}

/** Whether an error is the server asking for the second factor (a login on a new device...). */
export function needsSecondFactor(error: unknown): boolean {
  return isApiError(error) && error.code === SECOND_FACTOR_REQUIRED;
}

/** Whether this browser can use passkeys at all. */
export async function passkeysSupported(): Promise<boolean> {
  const { browserSupportsWebAuthn } = await import('@simplewebauthn/browser');
  return browserSupportsWebAuthn();
}

async function answerChallenge(options: DataOf<'/api/security/passkey/challenge'>): Promise<PasskeyAnswer> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  // The engine hands WebAuthn's options JSON as it is (API.md); the browser library checks its fields.
  const answer = await startAuthentication({ optionsJSON: options as unknown as RequestOptions });
  return answer as PasskeyAnswer;
}

/** The member's passkey confirms `action` (a withdrawal, a transfer, a security change): its answer. */
export async function passkeyFor(action: PasskeyAction): Promise<PasskeyAnswer> {
  return answerChallenge(await api.call('/api/security/passkey/challenge', { action }));
}

/** A passwordless login's first half: a discoverable passkey's answer (the session machine logs in with it). */
export async function passkeyLoginAnswer(): Promise<PasskeyAnswer> {
  return answerChallenge(await api.call('/api/security/passkey/loginOptions', undefined, { auth: false }));
}

/** Adds a passkey: the creation options (behind the second factor when it is on), the browser, the server. */
export async function registerPasskey(name: string, factor: SecondFactor) {
  const options = await api.call('/api/security/passkey/registerOptions', factor, { silent: true });
  const { startRegistration } = await import('@simplewebauthn/browser');
  const answer = await startRegistration({ optionsJSON: options as unknown as CreationOptions });
  const trimmed = name.trim();
  return api.call('/api/security/passkey/register', {
    answer: answer as BodyOf<'/api/security/passkey/register'>['answer'],
    ...(trimmed ? { name: trimmed } : {}),
  });
}

/** A passkey prompt the member dismissed or that timed out: not an error worth a red toast. */
export function passkeyCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}
