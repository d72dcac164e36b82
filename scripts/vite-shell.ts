/**
 * Vite plugin: the shell painted before any JavaScript (docs/PWA.md "The shell before JavaScript").
 *
 * In the build, it loads src/app/shell/StaticShell.tsx through a throw-away Vite server (ssrLoadModule, so
 * the components compile exactly as in the app), renders every shell route to a template
 * (scripts/shell-html.ts), and writes into index.html:
 * - #root: the zh-CN /home shell as markup (the default language and start URL; what paints with JS off);
 * - right after it, an inline script with every route's template and the shell strings of all twenty
 *   languages, which shows the opened route in the stored language before first paint (the head script has
 *   already set <html lang dir data-theme>);
 * - the app's CSS and that of the /home screen chunk inline (<style>, ~4 KiB gzip), so the shell paints
 *   fully styled without waiting for a stylesheet request.
 * Every route still answers with this one index.html (the service worker's navigation fallback included).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, type IndexHtmlTransformContext, type Plugin } from 'vite';
import { localeParts } from './vite-locale-parts';
import { isAdminPage } from './vite-admin';
import {
  MEMBER_HOME,
  fillShell,
  markerI18n,
  shellScript,
  shellStrings,
  templateKeys,
  type ShellData,
  type TranslationTree,
} from './shell-html';
import type * as StaticShellModule from '../src/app/shell/StaticShell';
import type * as GuardModule from '../src/app/guard';
import type * as PathsModule from '../src/app/paths';

const root = resolve(import.meta.dirname, '..');
const localesDir = join(root, 'locales');
const SERVED = { path: '/home', lang: 'zh-CN' };
const SPLASH = '<div class="splash">Strata</div>';
const ROOT_MARKUP = `<div id="root">${SPLASH}</div>`;
const HOME_SCREEN = /src\/features\/home\/HomePage\.tsx$/;

/** Renders every shell route to its template (markers in place of strings). */
export async function renderTemplates(): Promise<Pick<ShellData, 'templates' | 'titles' | 'guard'>> {
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
    plugins: [localeParts()],
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const shell = (await server.ssrLoadModule('/src/app/shell/StaticShell.tsx')) as typeof StaticShellModule;
    const { SCREENS: screens } = (await server.ssrLoadModule('/src/app/paths.ts')) as typeof PathsModule;
    const { guardRedirect } = (await server.ssrLoadModule('/src/app/guard.ts')) as typeof GuardModule;
    const i18n = await markerI18n();
    const templates: Record<string, string> = {};
    const titles: Record<string, string> = {};
    const guard: ShellData['guard'] = {};
    // The route guard's answer for each shell route, so the shell shows the screen the app will show.
    const target = (to: string | null, path: string) => (to === null ? path : to === '/' ? '/home' : to);
    for (const path of shell.SHELL_ROUTES) {
      templates[path] = shell.renderShell(path, i18n);
      const title = screens.find((s) => s.path === path)?.titleKey;
      if (title) titles[path] = title;
      guard[path] = [target(guardRedirect(path, false), path), target(guardRedirect(path, true), path)];
    }
    templates[MEMBER_HOME] = shell.renderShell('/home', i18n, true);
    return { templates, titles, guard };
  } finally {
    await server.close();
  }
}

export function readLocales(): Record<string, TranslationTree> {
  const out: Record<string, TranslationTree> = {};
  for (const lang of readdirSync(localesDir)) {
    const file = join(localesDir, lang, 'translation.json');
    if (existsSync(file)) out[lang] = JSON.parse(readFileSync(file, 'utf8')) as TranslationTree;
  }
  return out;
}

/** The shell data for index.html: templates plus every language's strings for the keys they use. */
export async function buildShellData(): Promise<ShellData> {
  const { templates, titles, guard } = await renderTemplates();
  const keys = [
    ...new Set([
      ...Object.values(templates).flatMap(templateKeys),
      ...Object.values(titles),
      'common.appName',
    ]),
  ];
  const strings: ShellData['strings'] = {};
  for (const [lang, tree] of Object.entries(readLocales())) strings[lang] = shellStrings(tree, keys, lang);
  return { templates, strings, titles, guard, served: SERVED };
}

function homeCss(ctx: IndexHtmlTransformContext): string[] {
  const bundle = ctx.bundle ?? {};
  const home = Object.values(bundle).find(
    (c) => c.type === 'chunk' && HOME_SCREEN.test(c.facadeModuleId ?? ''),
  );
  if (!home || home.type !== 'chunk') throw new Error('shell: no chunk holds the /home screen');
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    const chunk = bundle[file];
    if (!chunk || chunk.type !== 'chunk' || seen.has(file)) return;
    seen.add(file);
    for (const f of chunk.viteMetadata?.importedCss ?? []) css.add(f);
    chunk.imports.forEach(visit);
  };
  visit(home.fileName);
  return [...css];
}

/**
 * The app's entry module runs after the shell's first frame instead of as soon as it has arrived: its
 * modulepreload links still fetch it (and its imports) at once, but evaluating ~400 KB of JavaScript no
 * longer sits between the HTML and the first paint. The timeout covers a page opened in a background tab,
 * where no frame comes. scripts/bundle-budget.ts finds the entry by `data-entry`.
 */
export function startAfterFirstPaint(html: string): string {
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
  const src = html.match(entry)?.[1];
  if (!src) throw new Error('shell: index.html has no entry module script');
  const starter =
    `<script data-entry="${src}">(function(){var e=document.currentScript.dataset.entry,done=false;` +
    `function go(){if(done)return;done=true;var s=document.createElement('script');s.type='module';` +
    `s.crossOrigin='';s.src=e;document.head.appendChild(s);}` +
    `requestAnimationFrame(function(){setTimeout(go,0);});setTimeout(go,200);})();</script>`;
  return html.replace(entry, starter);
}

export function staticShell(): Plugin {
  let homeStyles: string[] = [];
  return {
    name: 'strata-static-shell',
    apply: 'build',
    /**
     * Once Vite has written its own tags into index.html: the app's stylesheet and the /home screen's CSS
     * become inline <style> (~4 KiB gzip), so the first paint waits for no stylesheet request. The files
     * stay in dist/ and the precache for the screens that load them.
     */
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type !== 'asset') return;
        const css = (file: string) => {
          const asset = bundle[file];
          if (asset?.type !== 'asset') throw new Error(`shell: no CSS asset ${file}`);
          return `<style>${String(asset.source)}</style>`;
        };
        const html = String(page.source);
        const linked = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g;
        const inlined = html.replace(linked, (_, file: string) => css(file));
        const extra = homeStyles
          .filter((f) => !html.includes(f))
          .map(css)
          .join('');
        page.source = startAfterFirstPaint(inlined.replace('</head>', `${extra}\n</head>`));
      },
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        // The back-office console (admin.html) has no member shell.
        if (!ctx.bundle || isAdminPage(ctx.path)) return html;
        if (!html.includes(ROOT_MARKUP)) throw new Error(`shell: index.html has no ${ROOT_MARKUP}`);
        const data = await buildShellData();
        const served = data.strings[SERVED.lang];
        const template = data.templates[SERVED.path];
        if (!served || !template) throw new Error('shell: no zh-CN /home shell');
        homeStyles = homeCss(ctx);
        return html.replace(
          ROOT_MARKUP,
          `<div id="root">${fillShell(template, served)}</div>${shellScript(data, SPLASH)}`,
        );
      },
    },
  };
}
