import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';
import { KNOWN_SEPARATORS } from '../../engine/index';
import { checkLocale, type TranslationTree } from './locale-check';
import enUS from '../../locales/en-US/translation.json';

const files = import.meta.glob<TranslationTree>('/locales/*/translation.json', {
  eager: true,
  import: 'default',
});

describe('locale completeness (ARCHITECTURE.md principle 9)', () => {
  it('has a file for each of the twenty languages', () => {
    const present = Object.keys(files)
      .map((f) => f.split('/')[2])
      .sort();
    expect(present).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  for (const { code } of LANGUAGES) {
    it(`${code}: every key of en-US, no extras, translated, same placeholders`, () => {
      const target = files[`/locales/${code}/translation.json`];
      expect(target, `locales/${code}/translation.json`).toBeDefined();
      if (!target) return;
      expect(checkLocale(code, enUS, target)).toEqual({
        missing: [],
        extra: [],
        untranslated: [],
        placeholders: [],
      });
    });
  }
});

describe('number separators', () => {
  it('are known in advance for every interface language (no Intl data load before the first figure)', () => {
    for (const { code } of LANGUAGES) expect(KNOWN_SEPARATORS[code], code).toBeDefined();
  });
});
