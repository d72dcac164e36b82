/**
 * Browser storage health: persistence (so the browser does not evict the member's IndexedDB replica under
 * pressure), usage for the account page, and recognising a full disk.
 *
 * A QuotaExceededError loses nothing already saved: every engine call that changes data runs as one Dexie
 * read-write transaction (ARCHITECTURE.md principle 4), and IndexedDB aborts a transaction whose writes do
 * not fit as a whole, so the previous committed state stays exactly as it was. The caller shows
 * quotaErrorMessage() and the member can retry after freeing space.
 */
import type { TFunction } from 'i18next';

export type PersistenceResult = 'granted' | 'denied' | 'unsupported';

export interface StorageUsage {
  /** Bytes used by this origin (IndexedDB, caches, service worker). */
  usage: number;
  /** Bytes this origin may use. */
  quota: number;
  persisted: boolean;
}

type StorageApi = Pick<StorageManager, 'persist' | 'persisted' | 'estimate'>;

function storageApi(): StorageApi | undefined {
  return typeof navigator !== 'undefined' ? navigator.storage : undefined;
}

/** Call after login: the member now has data worth keeping. Browsers may grant it silently or refuse. */
export async function requestPersistence(
  storage: StorageApi | undefined = storageApi(),
): Promise<PersistenceResult> {
  if (!storage || typeof storage.persist !== 'function') return 'unsupported';
  try {
    if (await storage.persisted()) return 'granted';
    return (await storage.persist()) ? 'granted' : 'denied';
  } catch {
    return 'denied';
  }
}

/** undefined when the browser cannot tell (StorageManager missing). */
export async function storageUsage(
  storage: StorageApi | undefined = storageApi(),
): Promise<StorageUsage | undefined> {
  if (!storage || typeof storage.estimate !== 'function') return undefined;
  const [estimate, persisted] = await Promise.all([
    storage.estimate(),
    typeof storage.persisted === 'function' ? storage.persisted().catch(() => false) : Promise.resolve(false),
  ]);
  return { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted };
}

/** "1.2 MB" in the member's language. */
export function formatBytes(bytes: number, locale?: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

const QUOTA_NAMES = new Set(['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED']);

/**
 * True for a full-disk error however it arrives: the DOMException itself, or wrapped by Dexie (an
 * AbortError or Dexie error whose `inner` is the DOMException) or by our own code (`cause`).
 */
export function isQuotaError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { name, code } = current as { name?: unknown; code?: unknown };
    if (typeof name === 'string' && QUOTA_NAMES.has(name)) return true;
    // Legacy WebKit DOMException code for QUOTA_EXCEEDED_ERR.
    if (name === undefined && code === 22) return true;
    const next = current as { inner?: unknown; cause?: unknown };
    current = next.inner ?? next.cause;
  }
  return false;
}

export function quotaErrorMessage(t: TFunction): string {
  return t('pwa.quotaExceeded');
}
