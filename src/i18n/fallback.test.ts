/**
 * The fallback language (src/i18n addFallback): en-US's core loads only when a part of the active language
 * cannot (offline before its chunk was ever cached), and then the shell's strings read in English instead
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

const { initI18n } = await import('./index');

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
});
