/**
 * The validation rules of SPEC.md §5 as the engine applies them (API.md constants), checked in the form
 * before anything is sent. Each returns the translation key of the broken rule, or undefined; the keys are
 * the catalogue's own messages (errors.e<code>) where the catalogue has one.
 */

export const USERNAME_MAX = 25;
export const PASSWORD_MIN = 6;
export const KEY_MIN = 4;

// Same shapes the engine accepts, so the form never passes what the server refuses (or the reverse).
const EMAIL_RE = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE_RE = /^\+?\d{6,15}$/;

export function usernameRule(value: string): string | undefined {
  const v = value.trim();
  if (!v) return 'errors.e2001';
  if (v.length > USERNAME_MAX) return 'errors.e2002';
  if (!/^[A-Za-z0-9]+$/.test(v)) return 'errors.e2003';
  return undefined;
}

/** Login accepts a username, e-mail or phone: only emptiness is checked before sending. */
export function accountRule(value: string): string | undefined {
  return value.trim() ? undefined : 'errors.e2001';
}

export function passwordRule(value: string): string | undefined {
  if (!value) return 'errors.e2004';
  if (value.length < PASSWORD_MIN) return 'errors.e2005';
  return undefined;
}

export function keyRule(value: string): string | undefined {
  if (!value) return 'auth.keyRequired';
  if (value.length < KEY_MIN) return 'errors.e20051';
  return undefined;
}

export function repeatRule(value: string, original: string, differKey: string): string | undefined {
  if (!value) return 'auth.repeatRequired';
  return value === original ? undefined : differKey;
}

export function emailRule(value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  return v.length <= 254 && EMAIL_RE.test(v) ? undefined : 'errors.e2007';
}

export function phoneRule(value: string): string | undefined {
  const v = value.trim().replace(/[\s-]/g, '');
  if (!v) return undefined;
  return PHONE_RE.test(v) ? undefined : 'errors.e2009';
}

/** At registration at least one of phone or e-mail (SPEC.md §5). */
export function contactRule(email: string, phone: string): string | undefined {
  return email.trim() || phone.trim() ? undefined : 'auth.contactRequired';
}

export function requiredRule(value: string, key: string): string | undefined {
  return value.trim() ? undefined : key;
}

/** Drops the fields without an error, so `Object.keys` lists only the broken ones. */
export function compact<T extends Record<string, string | undefined>>(
  errors: T,
): Partial<Record<keyof T, string>> {
  const out: Partial<Record<keyof T, string>> = {};
  for (const [k, v] of Object.entries(errors)) if (v) out[k as keyof T] = v;
  return out;
}
