/**
 * Compares one locale's translation tree with en-US: missing keys, extra keys, values left in English, and
 * interpolation placeholders that differ. Pure, so both scripts/locales-report.ts and the vitest check use it.
 */

export type TranslationTree = { [key: string]: string | TranslationTree };

export interface LocaleProblems {
  missing: string[];
  extra: string[];
  untranslated: string[];
  placeholders: string[];
}

/** Values that are the same in every language: proper nouns and technical tokens. */
export const SAME_IN_EVERY_LANGUAGE = new Set([
  'Strata',
  'USDT',
  'VIP',
  'TRC-20',
  'ERC-20',
  'K-line',
  'OK',
  'Demo',
  'BTC',
  'ETH',
  // Exchange abbreviations the big exchanges show untranslated in every language (return on equity,
  // take-profit/stop-loss).
  'ROE',
  'TP/SL',
  'TP/SL: {{symbol}}',
  // Layout templates with no words in them (a select option "Cash · 12.5 USDT", an arrow between names).
  '{{name}} · {{amount}} USDT',
  '{{from}} → {{to}}',
]);

/**
 * Keys whose English value is also the correct word in a given language (e.g. French "Options"). Keep this
 * short: each entry is a translator's decision, not a way to silence the check.
 */
export const SAME_AS_ENGLISH_BY_LOCALE: Record<string, readonly string[]> = {
  'fr-FR': [
    'more.options',
    'more.transfer',
    'home.transfer',
    'move.accounts.options',
    'notifications.title',
    'routes.userNotifications',
    'notifications.groups.trading',
    'statement.col.type',
  ],
  // "Passkey(s)" is the word German, Italian and Indonesian use (Apple's and Google's own), as is "Status".
  'de-DE': [
    'more.options',
    'routes.userPasskeys',
    'security.status',
    'security.devices.methodPasskey',
    'statement.col.status',
  ],
  'it-IT': ['security.devices.methodPassword', 'security.devices.methodPasskey'],
  'es-ES': [],
  'pt-BR': ['security.status', 'statement.col.status'],
  'id-ID': [
    'security.status',
    'security.devices.methodPasskey',
    'statement.col.status',
    'statement.kind.deposit',
  ],
};

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

export function flatten(tree: TranslationTree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

export function placeholdersOf(value: string): string[] {
  return [...value.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

/** A plural form (key_few) counts as present when en-US has the base key or any of its plural forms. */
function baseKey(key: string): string {
  return key.replace(PLURAL_SUFFIX, '');
}

export function checkLocale(
  locale: string,
  source: TranslationTree,
  target: TranslationTree,
): LocaleProblems {
  const en = flatten(source);
  const other = flatten(target);
  const enBases = new Set([...en.keys()].map(baseKey));
  const otherBases = new Set([...other.keys()].map(baseKey));
  const allowedByLocale = new Set(SAME_AS_ENGLISH_BY_LOCALE[locale] ?? []);
  const problems: LocaleProblems = { missing: [], extra: [], untranslated: [], placeholders: [] };

  for (const key of en.keys()) if (!otherBases.has(baseKey(key))) problems.missing.push(key);
  for (const [key, value] of other) {
    if (!enBases.has(baseKey(key))) {
      problems.extra.push(key);
      continue;
    }
    const english = en.get(key) ?? en.get(`${baseKey(key)}_other`) ?? en.get(baseKey(key)) ?? '';
    if (
      locale !== 'en-US' &&
      value === english &&
      !SAME_IN_EVERY_LANGUAGE.has(value.trim()) &&
      !allowedByLocale.has(key)
    )
      problems.untranslated.push(key);
    if (placeholdersOf(value).join(',') !== placeholdersOf(english).join(','))
      problems.placeholders.push(key);
  }
  return problems;
}

export function problemCount(p: LocaleProblems): number {
  return p.missing.length + p.extra.length + p.untranslated.length + p.placeholders.length;
}
