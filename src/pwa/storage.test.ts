import Dexie from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { formatBytes, isQuotaError, quotaErrorMessage, requestPersistence, storageUsage } from './storage';
import { en } from './test-i18n';
import i18next from 'i18next';

function fakeStorage(options: { persisted?: boolean; grant?: boolean } = {}) {
  return {
    persisted: vi.fn(async () => options.persisted ?? false),
    persist: vi.fn(async () => options.grant ?? true),
    estimate: vi.fn(async () => ({ usage: 1_234_567, quota: 2_000_000_000 })),
  };
}

describe('requestPersistence', () => {
  it('asks once and reports the browser decision', async () => {
    const granting = fakeStorage({ grant: true });
    expect(await requestPersistence(granting)).toBe('granted');
    expect(granting.persist).toHaveBeenCalledOnce();
    expect(await requestPersistence(fakeStorage({ grant: false }))).toBe('denied');
  });

  it('does not ask again when storage is already persistent', async () => {
    const storage = fakeStorage({ persisted: true });
    expect(await requestPersistence(storage)).toBe('granted');
    expect(storage.persist).not.toHaveBeenCalled();
  });

  it('reports unsupported browsers instead of throwing', async () => {
    expect(await requestPersistence(undefined)).toBe('unsupported');
  });
});

describe('storageUsage', () => {
  it('returns usage, quota and persistence', async () => {
    expect(await storageUsage(fakeStorage({ persisted: true }))).toEqual({
      usage: 1_234_567,
      quota: 2_000_000_000,
      persisted: true,
    });
    expect(await storageUsage(undefined)).toBeUndefined();
  });

  it('formats byte counts for the member', () => {
    expect(formatBytes(512, 'en-US')).toBe('512 byte');
    expect(formatBytes(1_234_567, 'en-US')).toBe('1.2 MB');
    expect(formatBytes(2_000_000_000, 'en-US')).toBe('2 GB');
  });
});

describe('isQuotaError (a full disk gives a clear message)', () => {
  it('recognises the DOMException, Dexie wrappers and causes', () => {
    const quota = new DOMException('full', 'QuotaExceededError');
    expect(isQuotaError(quota)).toBe(true);
    expect(isQuotaError(new Dexie.AbortError('transaction aborted', quota))).toBe(true);
    expect(isQuotaError(new Dexie.QuotaExceededError('full'))).toBe(true);
    expect(isQuotaError(new Error('save failed', { cause: quota }))).toBe(true);
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED' })).toBe(true);
  });

  it('does not mistake other failures for a full disk', () => {
    expect(isQuotaError(new DOMException('gone', 'AbortError'))).toBe(false);
    expect(isQuotaError(new Dexie.ConstraintError('duplicate'))).toBe(false);
    expect(isQuotaError('QuotaExceededError')).toBe(false);
    expect(isQuotaError(null)).toBe(false);
  });

  it('has a translated message', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en-US', resources: { 'en-US': { translation: { pwa: en } } } });
    expect(quotaErrorMessage(i18n.t)).toBe(en.quotaExceeded);
  });
});
