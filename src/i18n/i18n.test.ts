import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage';
import { chooseLanguage, initI18n, loadAllParts, storedLanguage } from './index';
import { PART_NAMES, startParts } from './parts';
import { directionOf } from './languages';

describe('i18n start-up', () => {
  it('defaults to zh-CN when nothing is stored (SPEC.md §1)', () => {
    localStorage.removeItem(STORAGE_KEYS.lang);
    expect(storedLanguage()).toBe('zh-CN');
    localStorage.setItem(STORAGE_KEYS.lang, 'xx-XX');
    expect(storedLanguage()).toBe('zh-CN');
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
