/**
 * The console's strings (locales/<lang>/admin.json): all twenty languages, every key of en-US and no other,
 * translated, with the same placeholders; and none of them in the member app's locale parts.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/languages';
import { flatten, type TranslationTree } from '../i18n/locale-check';
import enUS from '../../locales/en-US/admin.json';

const files = import.meta.glob<TranslationTree>('/locales/*/admin.json', { eager: true, import: 'default' });
const members = import.meta.glob<TranslationTree>('/locales/*/translation.json', {
  eager: true,
  import: 'default',
});

/** Technical tokens, the same in every language. */
const SAME = new Set(['ID', 'VIP', 'TOTP', 'USDT', 'IP']);
/** Per language, keys whose English value is also the right word there (a translator's decision). */
const SAME_BY_LOCALE: Record<string, readonly string[]> = {
  'id-ID': ['roles.admin', 'field.status', 'field.operator', 'field.email', 'solvency.surplus'],
  'pl-PL': ['roles.admin', 'roles.system', 'field.operator'],
  'cs-CZ': ['roles.finance', 'field.role'],
  'de-DE': ['roles.admin', 'roles.system', 'field.status', 'field.name', 'field.operator'],
  'fr-FR': [
    'roles.finance',
    'common.pages',
    'field.actions',
    'field.kind',
    'field.action',
    'audit.actionFilter',
  ],
  'it-IT': ['login.password'],
};

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('console locales', () => {
  const english = flatten(enUS as TranslationTree);

  it('has an admin.json for each of the twenty languages', () => {
    const present = Object.keys(files)
      .map((f) => f.split('/')[2])
      .sort();
    expect(present).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  for (const { code } of LANGUAGES) {
    it(`${code}: every key of en-US, no extras, translated, same placeholders`, () => {
      const tree = files[`/locales/${code}/admin.json`];
      expect(tree).toBeDefined();
      if (!tree) return;
      const target = flatten(tree);
      const missing = [...english.keys()].filter((k) => !target.has(k));
      const extra = [...target.keys()].filter((k) => !english.has(k));
      const allowed = new Set(SAME_BY_LOCALE[code] ?? []);
      const untranslated =
        code === 'en-US'
          ? []
          : [...english].filter(
              ([k, v]) => target.get(k) === v && !SAME.has(v) && !allowed.has(k) && !v.startsWith('otpauth'),
            );
      const badPlaceholders = [...english].filter(
        ([k, v]) => target.has(k) && placeholders(v).join() !== placeholders(target.get(k) ?? '').join(),
      );
      expect({
        missing,
        extra,
        untranslated: untranslated.map(([k]) => k),
        placeholders: badPlaceholders.map(([k]) => k),
      }).toEqual({
        missing: [],
        extra: [],
        untranslated: [],
        placeholders: [],
      });
    });
  }

  it('the member app’s translation files hold none of the console’s namespaces', () => {
    for (const [file, tree] of Object.entries(members)) {
      expect(Object.keys(tree), file).not.toContain('operators');
      expect(Object.keys(tree), file).not.toContain('solvency');
    }
  });
});
