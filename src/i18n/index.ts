/**
 * i18next set-up: every part of every locale is its own chunk (src/i18n/parts.ts); en-US's parts, the
 * fallback, are precached, and each is loaded only when the same part of the active language cannot load
 * (addFallback). The parts the opened route needs load in parallel before the app mounts
 * (`initI18n(code, parts)`), the rest with `loadAllParts()` right after the first render. The choice lives in
 * localStorage ('strata.lang'); with nothing stored, the browser's preferred language when it is one of the twenty,
 * else zh-CN (SPEC.md §1, issue 26 item 8).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loaders } from 'virtual:locale-parts';
import { STORAGE_KEYS, readString, writeString } from '../lib/storage';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  directionOf,
  isLanguageCode,
  preferredLanguage,
  type LanguageCode,
} from './languages';
import type { TranslationTree } from './locale-check';
import { PART_NAMES, type LocalePart } from './parts';

/** The member's choice; else the browser's preferred language when it is one of the twenty; else zh-CN. */
export function storedLanguage(): LanguageCode {
  const stored = readString(STORAGE_KEYS.lang);
  if (isLanguageCode(stored)) return stored;
  const browser =
    typeof navigator === 'undefined'
      ? []
      : navigator.languages?.length
        ? navigator.languages
        : [navigator.language];
  return preferredLanguage(browser) ?? DEFAULT_LANGUAGE;
}

/** <html lang dir> follow the active language, so the layout (logical CSS properties) mirrors for RTL. */
export function applyDocumentLanguage(code: string): void {
  document.documentElement.lang = code;
  document.documentElement.dir = directionOf(code);
}

/** One part of a language, or null when its chunk cannot load (offline before it was ever cached). */
async function loadPart(code: LanguageCode, part: string): Promise<TranslationTree | null> {
  const load = loaders[`${code}/${part}`];
  if (!load) return null;
  try {
    return (await load()).default as TranslationTree;
  } catch {
    return null;
  }
}

/** The fallback language's parts already added or on their way (each loaded once). */
const fallbacks = new Map<LocalePart, Promise<void>>();

/**
 * en-US's `parts` as the fallback, added for the parts of the active language that could not load: their
 * chunks are in the service worker's precache (vite.config.ts names them `fallback-en-US-<part>-*`), so
 * they load offline when a language's own chunks were never cached (a member who chose a language with no
 * network), and every screen reads in English rather than showing keys. Every locale carries every key (the
 * completeness test), so nothing else needs them, and they stay off the first screen's critical path.
 */
async function addFallback(parts: readonly LocalePart[]): Promise<void> {
  for (const part of parts) {
    if (fallbacks.has(part)) continue;
    fallbacks.set(
      part,
      loadPart(FALLBACK_LANGUAGE, part).then((tree) => {
        if (tree) i18next.addResourceBundle(FALLBACK_LANGUAGE, 'translation', tree, true, false);
      }),
    );
  }
  await Promise.all(parts.map((part) => fallbacks.get(part)));
}

/** `parts` of a language, merged (parts own disjoint top-level namespaces); missing: the parts that failed. */
async function loadLanguage(
  code: LanguageCode,
  parts: readonly LocalePart[],
): Promise<{ tree: TranslationTree; missing: LocalePart[] }> {
  const trees = await Promise.all(parts.map((part) => loadPart(code, part)));
  return {
    tree: Object.assign({}, ...trees.filter((t) => t !== null)) as TranslationTree,
    missing: parts.filter((_, i) => trees[i] === null),
  };
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
        ? loadLanguage(missing.code, missing.parts).then(async ({ tree, missing: failed }) => {
            i18next.addResourceBundle(missing.code, 'translation', tree, true, true);
            await addFallback(failed);
          })
        : Promise.resolve();
  }
  return allParts;
}

export async function initI18n(
  code: LanguageCode = storedLanguage(),
  parts: readonly LocalePart[] = PART_NAMES,
): Promise<typeof i18next> {
  // English (the fallback) is fetched only when it is the active language, or when a part cannot load.
  const first = PART_NAMES.filter((p) => p === 'core' || parts.includes(p));
  missingParts = { code, parts: PART_NAMES.filter((p) => !first.includes(p)) };
  allParts = null;
  fallbacks.clear();
  const { tree, missing } = await loadLanguage(code, first);
  const resources: Record<string, { translation: TranslationTree }> = { [code]: { translation: tree } };
  await i18next.use(initReactI18next).init({
    lng: code,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: false,
    resources,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  await addFallback(missing);
  // The page's language and direction are those its shell reads in: English, left to right, when the
  // language's core part could not load (no Arabic direction for English words).
  applyDocumentLanguage(missing.includes('core') ? FALLBACK_LANGUAGE : code);
  return i18next;
}

/** SPEC.md §1: choosing a language stores it and reloads the page. */
export function chooseLanguage(code: LanguageCode, reload: () => void = () => location.reload()): void {
  writeString(STORAGE_KEYS.lang, code);
  reload();
}

export { i18next };
