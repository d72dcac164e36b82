/**
 * Vite plugin: serves each locale file (locales/<lang>/translation.json) as parts (src/i18n/parts.ts).
 * `virtual:locale-part/<lang>/<part>` is one part as a module (its own chunk, named by vite.config.ts);
 * `virtual:locale-parts` maps "<lang>/<part>" to a loader for every part (en-US's parts, the fallback, are
 * named `fallback-en-US-<part>-*` by vite.config.ts so that the service worker precaches them).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IndexHtmlTransformContext, Plugin } from 'vite';
import { PART_NAMES, START_PARTS, pickPart, type LocalePart } from '../src/i18n/parts.ts';
import { isAdminPage } from './vite-admin.ts';

const PART_ID = 'virtual:locale-part/';
const INDEX_ID = 'virtual:locale-parts';

export function localeParts(localesDir = resolve(import.meta.dirname, '../locales')): Plugin {
  const languages = () =>
    readdirSync(localesDir).filter((l) => existsSync(join(localesDir, l, 'translation.json')));
  return {
    name: 'strata-locale-parts',
    resolveId(id) {
      if (id === INDEX_ID || id.startsWith(PART_ID)) return `\0${id}`;
      return undefined;
    },
    /**
     * In the build, the page learns where each language's parts are, and its head script names the parts of
     * the language it is about to show (stored, else the browser's when it is one of the twenty, else zh-CN) that the opened route starts with in
     * `window.__strataParts`; the starter script
     * (scripts/vite-shell.ts) preloads them together with the main chunk after the first paint, instead of
     * the app discovering them only after that chunk has run.
     */
    transformIndexHtml(html: string, ctx: IndexHtmlTransformContext) {
      // The back-office console (admin.html) loads its own strings, never the member's locale parts.
      if (!ctx.bundle || isAdminPage(ctx.path)) return html;
      const map: Record<string, Record<string, string>> = {};
      for (const chunk of Object.values(ctx.bundle)) {
        if (chunk.type !== 'chunk') continue;
        const m = chunk.facadeModuleId?.match(/virtual:locale-part\/([\w-]+)\/(\w+)$/);
        if (m?.[1] && m[2]) (map[m[1]] ??= {})[m[2]] = `/${chunk.fileName}`;
      }
      // Only the parts the opened route starts with (src/i18n/parts.ts startParts; all for most routes).
      const script =
        `<script>(function(){try{var m=${JSON.stringify(map)};var s=${JSON.stringify(START_PARTS)};` +
        // The language index.html's head script put on <html lang> (stored, else the browser's, else zh-CN).
        `var l=document.documentElement.lang;var x=m[l]||m['zh-CN']||{};` +
        `var w=s[location.pathname.replace(/(.)\\/+$/,'$1').toLowerCase()];` +
        `window.__strataParts=Object.keys(x).filter(function(k){return !w||w.indexOf(k)>=0}).map(function(k){return x[k]});` +
        `}catch(e){}})();</script>`;
      return html.replace('</head>', `${script}\n</head>`);
    },
    load(id) {
      if (id === `\0${INDEX_ID}`) {
        const entries = languages().flatMap((lang) =>
          PART_NAMES.map(
            (part) =>
              `  ${JSON.stringify(`${lang}/${part}`)}: () => import(${JSON.stringify(PART_ID + lang + '/' + part)}),`,
          ),
        );
        return `export const loaders = {\n${entries.join('\n')}\n};\n`;
      }
      if (id.startsWith(`\0${PART_ID}`)) {
        const [lang, part] = id.slice(PART_ID.length + 1).split('/') as [string, LocalePart];
        const file = join(localesDir, lang, 'translation.json');
        this.addWatchFile(file);
        const tree = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        return `export default ${JSON.stringify(pickPart(tree, part))};\n`;
      }
      return undefined;
    },
  };
}
