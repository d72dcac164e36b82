/**
 * The twenty interface languages of SPEC.md §1, each named in its own language (the picker shows endonyms,
 * so they are data here rather than translation keys).
 */
export const LANGUAGES = [
  { code: 'zh-CN', name: '简体中文' },
  { code: 'zh-HK', name: '繁體中文（香港）' },
  { code: 'en-US', name: 'English' },
  { code: 'ja-JP', name: '日本語' },
  { code: 'ko-KR', name: '한국어' },
  { code: 'vi-VN', name: 'Tiếng Việt' },
  { code: 'th-TH', name: 'ไทย' },
  { code: 'id-ID', name: 'Bahasa Indonesia' },
  { code: 'ru-RU', name: 'Русский' },
  { code: 'uk-UA', name: 'Українська' },
  { code: 'pl-PL', name: 'Polski' },
  { code: 'cs-CZ', name: 'Čeština' },
  { code: 'de-DE', name: 'Deutsch' },
  { code: 'fr-FR', name: 'Français' },
  { code: 'it-IT', name: 'Italiano' },
  { code: 'es-ES', name: 'Español' },
  { code: 'pt-BR', name: 'Português (Brasil)' },
  { code: 'tr-TR', name: 'Türkçe' },
  { code: 'ar-SA', name: 'العربية' },
  { code: 'fa-IR', name: 'فارسی' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const FALLBACK_LANGUAGE: LanguageCode = 'en-US';
/**
 * SPEC.md §1: the page is Chinese until the member picks another language, unless the browser prefers one of
 * the twenty (issue 26 item 8: preferredLanguage).
 */
export const DEFAULT_LANGUAGE: LanguageCode = 'zh-CN';

const RTL = new Set<string>(['ar-SA', 'fa-IR']);

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && LANGUAGES.some((l) => l.code === value);
}

export function directionOf(code: string): 'rtl' | 'ltr' {
  return RTL.has(code) ? 'rtl' : 'ltr';
}

/**
 * The first of the browser's preferred languages (navigator.languages, most wanted first) that is one of the
 * twenty: the same tag ("de-DE"), else the same language ("de", "de-AT" -> de-DE; "pt-PT" -> pt-BR), Chinese
 * by script or region (zh-TW, zh-HK, zh-MO, zh-Hant -> zh-HK; other Chinese -> zh-CN). Null when none is: the
 * product's default (zh-CN) applies. index.html's head script applies the same rule before the first paint.
 */
export function preferredLanguage(preferred: readonly string[]): LanguageCode | null {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    const [language = ''] = lower.split('-');
    if (language === 'zh') return /hant|tw|hk|mo/.test(lower) ? 'zh-HK' : 'zh-CN';
    const match =
      LANGUAGES.find((l) => l.code.toLowerCase() === lower) ??
      LANGUAGES.find((l) => l.code.toLowerCase().startsWith(`${language}-`));
    if (match) return match.code;
  }
  return null;
}
