/**
 * The console's strings: locales/<lang>/admin.json, one file per language, the "admin" namespace of its own
 * i18next instance. The member app never imports these files (they are not locale parts, scripts/
 * vite-locale-parts.ts reads translation.json only), so they are neither in its bundles nor its precache.
 * en-US is bundled as the fallback; the active language loads on demand. The choice is stored apart from the
 * member's ('strata.admin.lang'); until an operator picks one, the member app's stored language applies.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from '../../locales/en-US/admin.json';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  directionOf,
  isLanguageCode,
  type LanguageCode,
} from '../i18n/languages';
import { STORAGE_KEYS, readString, writeString } from '../lib/storage';

export const ADMIN_NS = 'admin';
export const ADMIN_LANG_KEY = 'strata.admin.lang';

type Tree = { [key: string]: string | Tree };

// en-US is bundled above; every other language is its own chunk (assets/admin-locale-<lang>-*.js).
const loaders = import.meta.glob<Tree>(['/locales/*/admin.json', '!/locales/en-US/admin.json'], {
  import: 'default',
});

export function adminLanguage(): LanguageCode {
  const own = readString(ADMIN_LANG_KEY);
  if (isLanguageCode(own)) return own;
  const member = readString(STORAGE_KEYS.lang);
  return isLanguageCode(member) ? member : DEFAULT_LANGUAGE;
}

async function loadStrings(code: LanguageCode): Promise<Tree> {
  if (code === FALLBACK_LANGUAGE) return enUS as Tree;
  const load = loaders[`/locales/${code}/admin.json`];
  if (!load) return {};
  try {
    return await load();
  } catch {
    return {};
  }
}

function applyDirection(code: string): void {
  document.documentElement.lang = code;
  document.documentElement.dir = directionOf(code);
}

export async function initAdminI18n(code: LanguageCode = adminLanguage()): Promise<I18n> {
  const instance = i18next.createInstance();
  const strings = await loadStrings(code);
  await instance.use(initReactI18next).init({
    lng: code,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: false,
    ns: [ADMIN_NS],
    defaultNS: ADMIN_NS,
    resources: { [FALLBACK_LANGUAGE]: { [ADMIN_NS]: enUS }, [code]: { [ADMIN_NS]: strings } },
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  applyDirection(code);
  return instance;
}

/** Switches the console's language in place (no reload: the console keeps no state worth a reload). */
export async function chooseAdminLanguage(instance: I18n, code: LanguageCode): Promise<void> {
  if (!instance.hasResourceBundle(code, ADMIN_NS))
    instance.addResourceBundle(code, ADMIN_NS, await loadStrings(code));
  writeString(ADMIN_LANG_KEY, code);
  await instance.changeLanguage(code);
  applyDirection(code);
}
