import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_LANG_KEY, adminLanguage, chooseAdminLanguage, initAdminI18n } from './i18n';

afterEach(() => localStorage.clear());

describe('console language', () => {
  it('loads the language’s admin.json on demand and lays the page out right to left for fa-IR and ar-SA', async () => {
    const i18n = await initAdminI18n('fa-IR');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('fa-IR');
    expect(i18n.t('nav.withdrawals')).toBe('برداشت‌ها');
    await chooseAdminLanguage(i18n, 'de-DE');
    expect(document.documentElement.dir).toBe('ltr');
    expect(i18n.t('nav.withdrawals')).toBe('Auszahlungen');
    expect(localStorage.getItem(ADMIN_LANG_KEY)).toBe('de-DE');
    await chooseAdminLanguage(i18n, 'ar-SA');
    expect(document.documentElement.dir).toBe('rtl');
    expect(i18n.t('withdrawals.approvalsSoFar', { done: 1, needed: 2 })).toBe('1 من 2 حتى الآن');
  });

  it('follows the member app’s language until the operator picks one', () => {
    localStorage.setItem('strata.lang', 'ja-JP');
    expect(adminLanguage()).toBe('ja-JP');
    localStorage.setItem(ADMIN_LANG_KEY, 'en-US');
    expect(adminLanguage()).toBe('en-US');
  });
});
