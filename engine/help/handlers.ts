/**
 * /api/help/list { lang }: the six help articles (SPEC.md §2) in the asked locale. Any of the twenty
 * locales of SPEC.md §1 is accepted, as are bare languages ("de") and case variants ("zh-hk"); anything
 * else falls back to en-US, like the app.
 */
import { z } from 'zod';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body } from '../schema';
import { HELP_TOPICS, type HelpArticles } from './types';

/**
 * Each locale's articles load on the first call that asks for them (one small chunk in the demo's worker),
 * so the worker's boot, which the first screen waits for, carries none of the twenty.
 */
const ARTICLES: Readonly<Record<string, () => Promise<HelpArticles>>> = {
  'ja-JP': async () => (await import('./articles/ja-JP')).jaJP,
  'en-US': async () => (await import('./articles/en-US')).enUS,
  'ko-KR': async () => (await import('./articles/ko-KR')).koKR,
  'vi-VN': async () => (await import('./articles/vi-VN')).viVN,
  'ru-RU': async () => (await import('./articles/ru-RU')).ruRU,
  'fr-FR': async () => (await import('./articles/fr-FR')).frFR,
  'fa-IR': async () => (await import('./articles/fa-IR')).faIR,
  'tr-TR': async () => (await import('./articles/tr-TR')).trTR,
  'id-ID': async () => (await import('./articles/id-ID')).idID,
  'cs-CZ': async () => (await import('./articles/cs-CZ')).csCZ,
  'pt-BR': async () => (await import('./articles/pt-BR')).ptBR,
  'es-ES': async () => (await import('./articles/es-ES')).esES,
  'ar-SA': async () => (await import('./articles/ar-SA')).arSA,
  'it-IT': async () => (await import('./articles/it-IT')).itIT,
  'de-DE': async () => (await import('./articles/de-DE')).deDE,
  'th-TH': async () => (await import('./articles/th-TH')).thTH,
  'zh-CN': async () => (await import('./articles/zh-CN')).zhCN,
  'zh-HK': async () => (await import('./articles/zh-HK')).zhHK,
  'uk-UA': async () => (await import('./articles/uk-UA')).ukUA,
  'pl-PL': async () => (await import('./articles/pl-PL')).plPL,
};

export const HELP_LOCALES = Object.keys(ARTICLES);

/** The articles of one of HELP_LOCALES (en-US for any other name). */
export function helpArticles(locale: string): Promise<HelpArticles> {
  return (ARTICLES[locale] ?? (ARTICLES['en-US'] as () => Promise<HelpArticles>))();
}

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
        const articles = await helpArticles(lang);
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
