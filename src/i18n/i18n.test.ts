import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage';
import { chooseLanguage, initI18n, loadAllParts, storedLanguage } from './index';
import { PART_NAMES, startParts } from './parts';
import { directionOf, LANGUAGES, preferredLanguage } from './languages';

describe('i18n start-up', () => {
  const browserLanguages = (languages: string[]) =>
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => languages });
  afterEach(() => browserLanguages(['en-US']));

  it("with nothing stored, the browser's preferred language when it is one of the twenty, else zh-CN (SPEC.md §1)", () => {
    localStorage.removeItem(STORAGE_KEYS.lang);
    browserLanguages(['nl-NL', 'de-AT', 'en-US']);
    expect(storedLanguage()).toBe('de-DE');
    browserLanguages(['nl-NL', 'sv-SE']);
    expect(storedLanguage()).toBe('zh-CN');
    localStorage.setItem(STORAGE_KEYS.lang, 'xx-XX');
    expect(storedLanguage()).toBe('zh-CN');
    // The member's choice wins over the browser's.
    localStorage.setItem(STORAGE_KEYS.lang, 'fa-IR');
    browserLanguages(['de-DE']);
    expect(storedLanguage()).toBe('fa-IR');
    localStorage.removeItem(STORAGE_KEYS.lang);
  });

  it('maps browser tags to the twenty: exact, same language, Chinese by script or region', () => {
    expect(preferredLanguage(['en-GB'])).toBe('en-US');
    expect(preferredLanguage(['pt-PT'])).toBe('pt-BR');
    expect(preferredLanguage(['fr'])).toBe('fr-FR');
    expect(preferredLanguage(['zh-TW'])).toBe('zh-HK');
    expect(preferredLanguage(['zh-Hant-HK'])).toBe('zh-HK');
    expect(preferredLanguage(['zh'])).toBe('zh-CN');
    expect(preferredLanguage(['zh-SG'])).toBe('zh-CN');
    expect(preferredLanguage(['AR-sa'])).toBe('ar-SA');
    expect(preferredLanguage(['nl', 'ko'])).toBe('ko-KR');
    expect(preferredLanguage([])).toBeNull();
  });

  it("index.html's head script knows the same twenty languages", () => {
    const html = readFileSync('index.html', 'utf8');
    const list = html.match(/var codes = \[([^\]]+)\]/)?.[1] ?? '';
    const codes = list
      .split(',')
      .map((c) => c.trim().replace(/'/g, ''))
      .filter(Boolean);
    expect(codes).toEqual(LANGUAGES.map((l) => l.code));
  });

  it('loads the zh-CN chunk and sets <html lang dir>', async () => {
    const i18n = await initI18n('zh-CN');
    expect(i18n.t('nav.home')).toBe('首页');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('sets dir="rtl" for ar-SA and fa-IR, falling back to en-US for missing keys', async () => {
    const i18n = await initI18n('ar-SA');
    expect(document.documentElement.dir).toBe('rtl');
    expect(i18n.t('common.appName')).toBe('Strata');
    expect(directionOf('fa-IR')).toBe('rtl');
    expect(directionOf('he-IL')).toBe('ltr');
  });

  it('starts /home with the core and markets parts and adds the others once asked (other screens wait for them)', async () => {
    expect(startParts('/home/')).toEqual(['core', 'markets']);
    expect(startParts('/')).toEqual(['core', 'markets']);
    expect(startParts('/user')).toEqual(PART_NAMES);
    const i18n = await initI18n('zh-CN', startParts('/home'));
    const has = (key: string) => i18n.getResource('zh-CN', 'translation', key) !== undefined;
    expect(has('home.heroTitle') && has('market.title') && has('nav.home')).toBe(true);
    expect(has('wallet.network') || has('finance.title') || has('auth.login')).toBe(false);
    await loadAllParts();
    expect(has('wallet.network') && has('auth.username')).toBe(true);
    expect(i18n.t('nav.home')).toBe('首页');
  });

  it('stores the chosen language and reloads', () => {
    let reloaded = false;
    chooseLanguage('de-DE', () => (reloaded = true));
    expect(localStorage.getItem(STORAGE_KEYS.lang)).toBe('de-DE');
    expect(reloaded).toBe(true);
  });
});
