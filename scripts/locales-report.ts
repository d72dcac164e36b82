/**
 * Locale completeness report: for each of the twenty locales, the keys missing from or extra to en-US, the
 * values still identical to English (outside the allowlist) and mismatched {{placeholders}}. Exits non-zero
 * when anything is reported. Run: npx tsx scripts/locales-report.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { LANGUAGES } from '../src/i18n/languages.ts';
import { checkLocale, problemCount, type TranslationTree } from '../src/i18n/locale-check.ts';

function load(code: string): TranslationTree | undefined {
  const file = `locales/${code}/translation.json`;
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as TranslationTree;
}

const source = load('en-US');
if (!source) {
  console.error('locales/en-US/translation.json is missing');
  process.exit(1);
}

let failing = 0;
for (const { code } of LANGUAGES) {
  const target = load(code);
  if (!target) {
    console.log(`${code}: MISSING FILE`);
    failing += 1;
    continue;
  }
  const p = checkLocale(code, source, target);
  const n = problemCount(p);
  if (n === 0) {
    console.log(`${code}: ok`);
    continue;
  }
  failing += 1;
  console.log(`${code}: ${n} problem(s)`);
  if (p.missing.length) console.log(`  missing (${p.missing.length}): ${p.missing.join(', ')}`);
  if (p.extra.length) console.log(`  extra (${p.extra.length}): ${p.extra.join(', ')}`);
  if (p.untranslated.length)
    console.log(`  same as en-US (${p.untranslated.length}): ${p.untranslated.join(', ')}`);
  if (p.placeholders.length) console.log(`  placeholders differ: ${p.placeholders.join(', ')}`);
}
console.log(failing ? `${failing} locale(s) need work` : 'all twenty locales complete');
process.exit(failing ? 1 : 0);
