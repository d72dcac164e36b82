/**
 * This device's id (API.md "Member security"): random, made once and kept in localStorage, sent with every
 * call as `X-Device-Id`. The server remembers the devices a member logged in from (only a digest of the id),
 * so a login from this device asks for no second factor again, and a login from a new one is told to the
 * member. It identifies nothing but this browser profile, and clearing site data makes a new device.
 */
const STORAGE_KEY = 'strata.deviceId';
let cached: string | null = null;

function fresh(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

export function deviceId(): string {
  if (cached) return cached;
  let id: string | null = null;
  try {
    id = localStorage.getItem(STORAGE_KEY);
    if (!id || !/^[A-Za-z0-9_-]{16,128}$/.test(id)) {
      id = fresh();
      localStorage.setItem(STORAGE_KEY, id);
    }
  } catch {
    // Storage refused (a private window's quota): an id for this page's life; the next visit is a new device.
    id ??= fresh();
  }
  cached = id;
  return id;
}
