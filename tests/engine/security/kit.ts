/**
 * Shared set-up of the member-security tests: a member logged in on a known device, an authenticator that
 * reads codes off the engine's clock (otplib's generate, as an app does), and two-factor turned on.
 */
import { generate } from 'otplib';
import type { BodyOf } from '../../../engine/contract';
import { fund, harness, register, type Harness, type Session } from '../harness';

export const PHONE = 'phone-device-id-0001';
export const LAPTOP = 'laptop-device-id-0002';

export interface Device {
  id: string;
  userAgent?: string;
  ip?: string;
}

export function deviceHeaders(device: Device): Record<string, string> {
  return {
    'X-Device-Id': device.id,
    ...(device.userAgent ? { 'User-Agent': device.userAgent } : {}),
    ...(device.ip ? { 'x-strata-client-ip': device.ip } : {}),
  };
}

/** A login from `device`: the envelope, and the session when it succeeded. */
export async function loginFrom(
  h: Harness,
  username: string,
  device: Device,
  extra: Partial<BodyOf<'/api/index/login'>> = {},
): Promise<{ code: number; data: unknown; session?: Session }> {
  const headers = deviceHeaders(device);
  const r = await h.call('/api/index/login', { username, password: 'secret1', ...extra }, { headers });
  if (r.code !== 0) return r;
  const user = JSON.parse(r.data) as { id: string; token: string };
  return {
    ...r,
    session: {
      id: String(user.id),
      token: user.token,
      headers: { ...headers, Authorization: user.token, UserId: String(user.id) },
    },
  };
}

export async function memberOn(h: Harness, username: string, device: Device = { id: PHONE }) {
  const r = await register(h, username);
  if (r.code !== 0) throw new Error(`register ${username}: ${r.code}`);
  const login = await loginFrom(h, username, device);
  if (!login.session) throw new Error(`login ${username}: ${login.code}`);
  return login.session;
}

/** The code an authenticator app shows now for `secret`. */
export function codeNow(h: Harness, secret: string): Promise<string> {
  return generate({ secret, epoch: Math.floor(h.clock.now() / 1000) });
}

/** The next 30 s step's code (each code is accepted once). */
export async function nextCode(h: Harness, secret: string): Promise<string> {
  h.clock.advance(30_000);
  return codeNow(h, secret);
}

/** Turns two-factor authentication on: the authenticator key and the recovery codes. */
export async function enableTwoFactor(
  h: Harness,
  s: Session,
): Promise<{ secret: string; recovery: string[] }> {
  const setup = await h.call('/api/security/totp/setup', { password: 'secret1' }, s);
  if (setup.code !== 0) throw new Error(`setup: ${setup.code} ${setup.msg}`);
  const { secret } = setup.data;
  const enabled = await h.call('/api/security/totp/enable', { code: await codeNow(h, secret) }, s);
  if (enabled.code !== 0) throw new Error(`enable: ${enabled.code} ${enabled.msg}`);
  return { secret, recovery: enabled.data.recoveryCodes };
}

export async function securityHarness() {
  const h = await harness();
  return { h, fund: (s: Session, amount: string) => fund(h, s.id, amount) };
}
