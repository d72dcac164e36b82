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
/** SPEC.md §1: the page is Chinese until the member picks another language. */
export const DEFAULT_LANGUAGE: LanguageCode = 'zh-CN';

const RTL = new Set<string>(['ar-SA', 'fa-IR']);

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && LANGUAGES.some((l) => l.code === value);
}

export function directionOf(code: string): 'rtl' | 'ltr' {
  return RTL.has(code) ? 'rtl' : 'ltr';
}
