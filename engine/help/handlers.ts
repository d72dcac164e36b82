/**
 * /api/help/list { lang }: the six help articles (SPEC.md §2) in the asked locale. Any of the twenty
 * locales of SPEC.md §1 is accepted, as are bare languages ("de") and case variants ("zh-hk"); anything
 * else falls back to en-US, like the app.
 */
import { z } from 'zod';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body } from '../schema';
import { jaJP } from './articles/ja-JP';
import { enUS } from './articles/en-US';
import { koKR } from './articles/ko-KR';
import { viVN } from './articles/vi-VN';
import { ruRU } from './articles/ru-RU';
import { frFR } from './articles/fr-FR';
import { faIR } from './articles/fa-IR';
import { trTR } from './articles/tr-TR';
import { idID } from './articles/id-ID';
import { csCZ } from './articles/cs-CZ';
import { ptBR } from './articles/pt-BR';
import { esES } from './articles/es-ES';
import { arSA } from './articles/ar-SA';
import { itIT } from './articles/it-IT';
import { deDE } from './articles/de-DE';
import { thTH } from './articles/th-TH';
import { zhCN } from './articles/zh-CN';
import { zhHK } from './articles/zh-HK';
import { ukUA } from './articles/uk-UA';
import { plPL } from './articles/pl-PL';
import { HELP_TOPICS, type HelpArticles } from './types';

export const HELP: Readonly<Record<string, HelpArticles>> = {
  'ja-JP': jaJP,
  'en-US': enUS,
  'ko-KR': koKR,
  'vi-VN': viVN,
  'ru-RU': ruRU,
  'fr-FR': frFR,
  'fa-IR': faIR,
  'tr-TR': trTR,
  'id-ID': idID,
  'cs-CZ': csCZ,
  'pt-BR': ptBR,
  'es-ES': esES,
  'ar-SA': arSA,
  'it-IT': itIT,
  'de-DE': deDE,
  'th-TH': thTH,
  'zh-CN': zhCN,
  'zh-HK': zhHK,
  'uk-UA': ukUA,
  'pl-PL': plPL,
};

export const HELP_LOCALES = Object.keys(HELP);

export function resolveLocale(lang: string): string {
  const wanted = lang.trim().toLowerCase().replace('_', '-');
  const exact = HELP_LOCALES.find((l) => l.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split('-')[0];
  return HELP_LOCALES.find((l) => l.split('-')[0] === language) ?? 'en-US';
}

export interface HelpArticleView {
  id: string;
  topic: string;
  title: string;
  content: string;
}

export const helpDomain: Domain = {
  name: 'help',
  handlers: {
    '/api/help/list': handler({
      auth: false,
      body: body({ lang: z.string().max(20).optional() }),
      run: async (_ctx, input): Promise<{ lang: string; list: HelpArticleView[] }> => {
        const lang = resolveLocale(input.lang ?? 'en-US');
        const articles = HELP[lang] ?? (HELP['en-US'] as HelpArticles);
        return {
          lang,
          list: HELP_TOPICS.map((topic, i) => ({
            id: String(i + 1),
            topic,
            title: articles[topic][0],
            content: articles[topic][1],
          })),
        };
      },
    }),
  },
};
