/**
 * i18next set-up: en-US's core part is bundled (the fallback); every other part, of every locale, is its own
 * chunk (src/i18n/parts.ts). The parts the opened route needs load in parallel before the app mounts
 * (`initI18n(code, parts)`), the rest with `loadAllParts()` right after the first render. The choice lives in
 * localStorage ('strata.lang'); zh-CN when nothing is stored (SPEC.md §1).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUSCore from 'virtual:locale-part/en-US/core';
import { loaders } from 'virtual:locale-parts';
import { STORAGE_KEYS, readString, writeString } from '../lib/storage';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  directionOf,
  isLanguageCode,
  type LanguageCode,
} from './languages';
import type { TranslationTree } from './locale-check';
import { PART_NAMES, type LocalePart } from './parts';

export function storedLanguage(): LanguageCode {
  const stored = readString(STORAGE_KEYS.lang);
  return isLanguageCode(stored) ? stored : DEFAULT_LANGUAGE;
}

/** <html lang dir> follow the active language, so the layout (logical CSS properties) mirrors for RTL. */
export function applyDocumentLanguage(code: string): void {
  document.documentElement.lang = code;
  document.documentElement.dir = directionOf(code);
}

async function loadPart(code: LanguageCode, part: string): Promise<TranslationTree> {
  const load = loaders[`${code}/${part}`];
  if (!load) return {};
  try {
    return (await load()).default as TranslationTree;
  } catch {
    // Offline before the chunk was cached: the fallback language still renders what it has.
    return {};
  }
}

/** `parts` of a language, merged (parts own disjoint top-level namespaces). */
async function loadLanguage(code: LanguageCode, parts: readonly LocalePart[]): Promise<TranslationTree> {
  const trees = await Promise.all(
    parts.map((part) =>
      code === FALLBACK_LANGUAGE && part === 'core' ? (enUSCore as TranslationTree) : loadPart(code, part),
    ),
  );
  return Object.assign({}, ...trees) as TranslationTree;
}

/** The parts initI18n did not load, and the promise of loading them (once). */
let missingParts: { code: LanguageCode; parts: readonly LocalePart[] } | null = null;
let allParts: Promise<void> | null = null;

/**
 * Loads the parts of the active language that initI18n left out (none when it loaded them all) and adds them
 * to i18next; answers once they are in. Called after the first render, and awaited by every screen but the
 * one the app started on.
 */
export function loadAllParts(): Promise<void> {
  if (!allParts) {
    const missing = missingParts;
    allParts =
      missing && missing.parts.length > 0
        ? loadLanguage(missing.code, missing.parts).then((tree) => {
            i18next.addResourceBundle(missing.code, 'translation', tree, true, true);
          })
        : Promise.resolve();
  }
  return allParts;
}

export async function initI18n(
  code: LanguageCode = storedLanguage(),
  parts: readonly LocalePart[] = PART_NAMES,
): Promise<typeof i18next> {
  // The fallback's other parts are fetched only when the fallback is the active language: every locale
  // carries every key (the completeness test), so English is needed only while a part cannot load.
  const first = PART_NAMES.filter((p) => p === 'core' || parts.includes(p));
  missingParts = { code, parts: PART_NAMES.filter((p) => !first.includes(p)) };
  allParts = null;
  const bundle = await loadLanguage(code, first);
  const resources: Record<string, { translation: TranslationTree }> = {
    [FALLBACK_LANGUAGE]: { translation: code === FALLBACK_LANGUAGE ? bundle : (enUSCore as TranslationTree) },
  };
  if (code !== FALLBACK_LANGUAGE) resources[code] = { translation: bundle };
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
