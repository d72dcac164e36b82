/**
 * The fallback language (src/i18n addFallback): en-US's part loads only when the same part of the active
 * language cannot (offline before its chunk was ever cached), and then its strings read in English instead
 * of as keys; when every part loads, no English is fetched at all.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as LocaleParts from 'virtual:locale-parts';

const failing = new Set<string>();
const requested: string[] = [];

vi.mock('virtual:locale-parts', async (importOriginal) => {
  const { loaders } = await importOriginal<typeof LocaleParts>();
  const wrapped: typeof loaders = {};
  for (const [name, load] of Object.entries(loaders))
    wrapped[name] = () => {
      requested.push(name);
      return failing.has(name) ? Promise.reject(new Error(`offline: ${name}`)) : load();
    };
  return { loaders: wrapped };
});

const { initI18n, loadAllParts } = await import('./index');

beforeEach(() => {
  failing.clear();
  requested.length = 0;
});

describe('the fallback language', () => {
  it('is not fetched when every part of the language loads', async () => {
    const i18n = await initI18n('de-DE');
    expect(requested.some((r) => r.startsWith('en-US/'))).toBe(false);
    expect(i18n.getResourceBundle('en-US', 'translation')).toBeUndefined();
  });

  it('supplies English when a part cannot load, so the shell never shows a key', async () => {
    failing.add('de-DE/core');
    const i18n = await initI18n('de-DE');
    expect(requested).toContain('en-US/core');
    expect(i18n.t('nav.home')).toBe('Home');
    expect(i18n.t('common.appName')).toBe('Strata');
  });

  it('lays the page out for the language its shell reads in', async () => {
    failing.add('ar-SA/core');
    await initI18n('ar-SA');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['en-US', 'ltr']);
    failing.clear();
    await initI18n('ar-SA');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ar-SA', 'rtl']);
  });

  it("supplies each part that cannot load, and only those: a screen's own strings never show as keys", async () => {
    failing.add('ar-SA/wallet');
    const i18n = await initI18n('ar-SA', ['core', 'markets']);
    await loadAllParts();
    expect(i18n.t('records.emptyDeposits')).toBe('No deposits yet.');
    expect(requested.filter((r) => r.startsWith('en-US/'))).toEqual(['en-US/wallet']);
    // The parts that loaded stay in the member's language.
    expect(i18n.t('nav.home')).not.toBe('Home');
  });
});
