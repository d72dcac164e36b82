/**
 * i18next set-up: en-US is bundled (the fallback), every other locale is its own chunk loaded before the app
 * mounts. The choice lives in localStorage ('strata.lang'); zh-CN when nothing is stored (SPEC.md §1).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from '../../locales/en-US/translation.json';
import { STORAGE_KEYS, readString, writeString } from '../lib/storage';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  directionOf,
  isLanguageCode,
  type LanguageCode,
} from './languages';
import type { TranslationTree } from './locale-check';

const loaders = import.meta.glob<TranslationTree>(
  ['/locales/*/translation.json', '!/locales/en-US/translation.json'],
  { import: 'default' },
);

export function storedLanguage(): LanguageCode {
  const stored = readString(STORAGE_KEYS.lang);
  return isLanguageCode(stored) ? stored : DEFAULT_LANGUAGE;
}

/** <html lang dir> follow the active language, so the layout (logical CSS properties) mirrors for RTL. */
export function applyDocumentLanguage(code: string): void {
  document.documentElement.lang = code;
  document.documentElement.dir = directionOf(code);
}

async function loadBundle(code: LanguageCode): Promise<TranslationTree | undefined> {
  if (code === FALLBACK_LANGUAGE) return undefined;
  const load = loaders[`/locales/${code}/translation.json`];
  if (!load) return undefined;
  try {
    return await load();
  } catch {
    // Offline before the chunk was cached: English (the fallback) still renders every key.
    return undefined;
  }
}

export async function initI18n(code: LanguageCode = storedLanguage()): Promise<typeof i18next> {
  const bundle = await loadBundle(code);
  const resources: Record<string, { translation: TranslationTree }> = {
    [FALLBACK_LANGUAGE]: { translation: enUS },
  };
  if (bundle) resources[code] = { translation: bundle };
  await i18next.use(initReactI18next).init({
    lng: code,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: false,
    resources,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  applyDocumentLanguage(code);
  return i18next;
}

/** SPEC.md §1: choosing a language stores it and reloads the page. */
export function chooseLanguage(code: LanguageCode, reload: () => void = () => location.reload()): void {
  writeString(STORAGE_KEYS.lang, code);
  reload();
}

export { i18next };
