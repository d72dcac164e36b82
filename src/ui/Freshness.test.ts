import { readdirSync, readFileSync } from 'node:fs';
import i18next, { type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { agoText, freshnessTime } from './Freshness';

const MINUTE = 60_000;
const LANGUAGES = readdirSync('locales');

function translator(language: string): TFunction {
  const translation = JSON.parse(readFileSync(`locales/${language}/translation.json`, 'utf8')) as Record<
    string,
    unknown
  >;
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: language,
    resources: { [language]: { translation } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return i18n.t;
}

/** Intl's own wording with its digits read as Latin ones (the app shows Latin digits in every language). */
function cldr(language: string, minutes: number): string {
  const text = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' }).format(
    -minutes,
    'minute',
  );
  // The language's zero digit (Arabic-Indic in ar-SA, Persian in fa-IR): each digit maps to its Latin one.
  const zero = new Intl.NumberFormat(language, { useGrouping: false }).format(0).codePointAt(0) ?? 48;
  return text.replace(/\p{Nd}/gu, (d) => String((d.codePointAt(0) ?? zero) - zero));
}

describe('the freshness phrase (locale strings, not Intl.RelativeTimeFormat at run time)', () => {
  it('says "this minute", then "N min. ago" within the hour, then the time', () => {
    const t = translator('en-US');
    const at = Date.UTC(2026, 10, 26, 10, 0);
    expect(freshnessTime(at, at + 30_000, t)).toBe('this minute');
    expect(freshnessTime(at, at + MINUTE, t)).toBe('1 min. ago');
    expect(freshnessTime(at, at + 59 * MINUTE, t)).toBe('59 min. ago');
    expect(agoText(at, at + 60 * MINUTE, t)).toBeNull();
    expect(agoText(at, at - 1, t)).toBeNull();
  });

  it("uses each language's plural forms (Arabic: few and many; one and two carry the number too)", () => {
    const t = translator('ar-SA');
    expect(agoText(0, MINUTE, t)).toBe('قبل 1 دقيقة');
    expect(agoText(0, 2 * MINUTE, t)).toBe('قبل 2 دقيقة');
    expect(agoText(0, 3 * MINUTE, t)).toBe('قبل 3 دقائق');
    expect(agoText(0, 11 * MINUTE, t)).toBe('قبل 11 دقيقة');
  });

  it.each(LANGUAGES)('%s: every minute of the hour reads as CLDR words it (short style)', (language) => {
    const t = translator(language);
    for (let minutes = 0; minutes < 60; minutes += 1) {
      const words = cldr(language, minutes);
      // Where CLDR spells the number out (Arabic's 1 and 2), the strings keep the number, as every string
      // with a count does here (src/i18n/locales.test.ts).
      if (minutes > 0 && !/\d/.test(words)) continue;
      expect(agoText(0, minutes * MINUTE + 1, t), `${minutes} min`).toBe(words);
    }
  });
});
