/**
 * Vite plugin: the shell painted before any JavaScript. In the build it renders src/app/shell/StaticShell.tsx
 * (through a throw-away Vite server's ssrLoadModule, so the components compile as in the app) to a template
 * per shell route (scripts/shell-html.ts) and writes into index.html the zh-CN /home shell as #root's markup,
 * an inline script with every route's template and all twenty languages' shell strings, and the shell's CSS
 * inline. docs/PWA.md "The shell before JavaScript".
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { createServer, type IndexHtmlTransformContext, type Plugin } from 'vite';
import { localeParts } from './vite-locale-parts.ts';
import { isAdminPage } from './vite-admin.ts';
import {
  MEMBER_HOME,
  fillShell,
  markerI18n,
  shellScript,
  shellStrings,
  templateKeys,
  type ShellData,
  type TranslationTree,
} from './shell-html.ts';
import type * as StaticShellModule from '../src/app/shell/StaticShell.tsx';
import type * as GuardModule from '../src/app/guard.ts';
import type * as PathsModule from '../src/app/paths.ts';

const root = resolve(import.meta.dirname, '..');
const localesDir = join(root, 'locales');
const SERVED = { path: '/home', lang: 'zh-CN' };
const SPLASH = '<div class="splash">Strata</div>';
const ROOT_MARKUP = `<div id="root">${SPLASH}</div>`;
/** The screens the shell renders as themselves (src/app/shell/StaticShell.tsx): their CSS goes inline too. */
const SHELL_SCREENS = [
  /src\/features\/home\/HomePage\.tsx$/,
  /src\/features\/market\/MarketPage\.tsx$/,
  /src\/features\/assets\/AssetsPage\.tsx$/,
  /src\/features\/records\/TransferRecordsPage\.tsx$/,
];

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

function shellCss(ctx: IndexHtmlTransformContext): string[] {
  const bundle = ctx.bundle ?? {};
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    const chunk = bundle[file];
    if (!chunk || chunk.type !== 'chunk' || seen.has(file)) return;
    seen.add(file);
    for (const f of chunk.viteMetadata?.importedCss ?? []) css.add(f);
    chunk.imports.forEach(visit);
  };
  for (const screen of SHELL_SCREENS) {
    const chunk = Object.values(bundle).find(
      (c) => c.type === 'chunk' && screen.test(c.facadeModuleId ?? ''),
    );
    if (!chunk || chunk.type !== 'chunk') throw new Error(`shell: no chunk holds ${screen.source}`);
    visit(chunk.fileName);
  }
  return [...css];
}

/**
 * No JavaScript is fetched before the shell's first contentful paint. Vite's entry script and its
 * modulepreload links leave index.html; a small starter script puts them back once the browser reports the
 * first contentful paint (PerformanceObserver, `paint`), together with the active language's locale parts
 * that the head script names in `window.__strataParts` (scripts/vite-locale-parts.ts). Before, the preloads
 * went out while the HTML was still being parsed: ~140 KiB of script competing with the document on a slow
 * link, and on a slow phone the first frame waited behind them (Lighthouse counts every request that starts
 * before the first paint into its simulated first paint).
 * A browser without paint timing starts after the first frame (requestAnimationFrame, then a task); a page
 * opened in a background tab, or hidden before its first paint (no frame comes), starts at once; a safety
 * timeout starts it after 3 s whatever happens. scripts/bundle-budget.ts reads the entry from `data-entry` and the preloads from `data-preload`.
 * Before the entry, it names every stylesheet the shell carries inline (`data-css`) in a disabled
 * `<link rel="stylesheet">`: the browser never fetches a disabled stylesheet link, but Vite's preload helper
 * finds it and so does not fetch the same file again when a screen's chunk that imports it loads (that
 * request would add a second copy of the rules, a whole-page style recalculation, after the app starts).
 * The links are added after the first paint, not written into the HTML, so they cannot touch it.
 *
 * Demo mode's engine worker (`engine`, see engineWorkerFiles) starts in the same wave, before the entry: the
 * first quote row waits for the engine more than for anything else, and before, the worker was created only
 * once React had rendered /home and its quotes card had loaded (docs/PWA.md "The data path"). The starter
 * keeps it in `window.__strataEngine`, which src/api/transport-worker.ts adopts; the worker's own chunks are
 * fetched at the same moment (into the HTTP cache, where the worker's module loader finds them), instead of
 * in the three waves its imports would otherwise make (entry, its static imports, the engine's code). On a
 * repeat visit the service worker answers the worker's imports from its cache at once: the early fetch would
 * only read the same bytes twice, so it is skipped when a service worker controls the page.
 * It starts only where the first screen reads the engine: a member's every route (the stored 'strata.user',
 * as the shell script and the route guard read it) and a guest's /home (GUEST_ENGINE_SCREENS). A guest's
 * other routes open the login form (the guard sends them to /login) or a static form; there the worker and
 * its boot chunk competed with the app's own start for nothing (measured 2026-11-28: /user -> /login
 * 1.47-1.79 s with it, 1.27-1.45 s without), and the app creates it on its first call as before.
 */
/**
 * The routes whose first screen reads the demo engine for a guest (normalised as the router matches: lower
 * case, no trailing slash): /home's quotes, and / which opens it (src/app/paths.ts REDIRECTS). Every other
 * route a guest opens is the login form the guard sends them to (src/app/guard.ts), /register, /forget or
 * /home/more, none of which reads data before the member acts.
 */
export const GUEST_ENGINE_SCREENS = ['/', '/home'] as const;

export function startAfterFirstPaint(
  html: string,
  inlinedCss: readonly string[] = [],
  engine: EngineWorkerFiles | null = null,
  routeChunks: Readonly<Record<string, readonly string[]>> = {},
): string {
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
  const src = html.match(entry)?.[1];
  if (!src) throw new Error('shell: index.html has no entry module script');
  const preloadTag = /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\n?/g;
  const preloads = [...html.matchAll(preloadTag)].map((m) => m[1] ?? '');
  const routes = Object.entries(routeChunks)
    .map(([path, files]) => `${path}=${files.filter((f) => f !== src && !preloads.includes(f)).join(',')}`)
    .join(';');
  const starter =
    `<script data-entry="${src}" data-preload="${preloads.join(' ')}" data-css="${inlinedCss.join(' ')}"` +
    (engine
      ? ` data-worker="${engine.entry}" data-worker-chunks="${engine.chunks.join(' ')}"` +
        ` data-worker-guest="${GUEST_ENGINE_SCREENS.join(' ')}"`
      : '') +
    (routes ? ` data-routes="${routes}"` : '') +
    `>(function(){` +
    `var d=document,c=d.currentScript.dataset,done=false;` +
    `function add(h){var k=d.createElement('link');k.rel='modulepreload';k.crossOrigin='';k.href=h;d.head.appendChild(k);}` +
    `function css(h){var k=d.createElement('link');k.setAttribute('disabled','');k.rel='stylesheet';k.href=h;d.head.appendChild(k);}` +
    `function worker(){if(!c.worker||!window.Worker)return;` +
    `var u=null;try{u=localStorage.getItem('strata.user');}catch(e){}` +
    `if(!u&&(' '+c.workerGuest+' ').indexOf(' '+(location.pathname.replace(/\\/+$/,'').toLowerCase()||'/')+' ')<0)return;` +
    `try{window.__strataEngine=new Worker(c.worker,{type:'module',name:'strata-engine'});}catch(e){return;}` +
    `var sw=navigator.serviceWorker;if(sw&&sw.controller)return;` +
    `c.workerChunks.split(' ').forEach(function(h){if(h&&window.fetch)fetch(h).then(function(r){return r.arrayBuffer();}).catch(function(){});});}` +
    `function go(){if(done)return;done=true;worker();c.css.split(' ').forEach(function(h){if(h)css(h);});` +
    `c.preload.split(' ').concat(window.__strataParts||[]).forEach(function(h){if(h)add(h);});` +
    // The route the shell script resolved (scripts/shell-html.ts): lower case, / as /home, after the guard.
    `var p=window.__strataRoute;` +
    `(c.routes||'').split(';').forEach(function(r){var i=r.indexOf('=');` +
    `if(r.slice(0,i)===p)r.slice(i+1).split(',').forEach(function(h){if(h)add(h);});});` +
    `var s=d.createElement('script');s.type='module';s.crossOrigin='';s.src=c.entry;d.head.appendChild(s);}` +
    `function later(){setTimeout(go,0);}` +
    `if(d.visibilityState==='hidden'){go();return;}` +
    `d.addEventListener('visibilitychange',function(){if(d.visibilityState==='hidden')go();});` +
    `var P=window.PerformanceObserver;` +
    `if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){` +
    `new P(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();later();}})` +
    `.observe({type:'paint',buffered:true});}` +
    `else requestAnimationFrame(later);` +
    `setTimeout(go,3000);})();</script>`;
  return html.replace(preloadTag, '').replace(entry, starter);
}

/** The device sync (src/main.tsx starts it): a member's screens show its replica, filled by its first pull. */
const SYNC_APP = /src\/sync\/app\.ts$/;

/**
 * What a route's first data needs beyond the entry (docs/PWA.md "The data path"): the route's screen (which
 * main.tsx loads once the entry runs) with, on /home, its quotes card (HomePage loads it once it has
 * rendered) and, on a member's routes, the device sync. The starter preloads their chunks (and their static
 * imports) with the entry's, in one wave, instead of more waves after the app has started. It looks the route
 * up as the shell script resolved it, after the guard: a guest on a member's route is on /login there.
 */
const ROUTE_DATA: Readonly<Record<string, readonly RegExp[]>> = {
  '/home': [/src\/features\/home\/HomePage\.tsx$/, /src\/ui\/QuotesSummary\.tsx$/],
  '/market': [/src\/features\/market\/MarketPage\.tsx$/, SYNC_APP],
  '/user': [/src\/features\/assets\/AssetsPage\.tsx$/, SYNC_APP],
  '/order/transferRecord': [/src\/features\/records\/TransferRecordsPage\.tsx$/, SYNC_APP],
};

/** Each route's chunks, keyed by its lower-cased path (the shell script's resolved route). */
export function routeDataChunks(bundle: OutputBundle): Record<string, string[]> {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const out: Record<string, string[]> = {};
  for (const [path, modules] of Object.entries(ROUTE_DATA)) {
    const files = new Set<string>();
    const visit = (file: string) => {
      const chunk = bundle[file];
      if (!chunk || chunk.type !== 'chunk' || files.has(file)) return;
      files.add(file);
      chunk.imports.forEach(visit);
    };
    for (const module of modules) {
      // The module's own chunk, or the one it was merged into (the sync app shares its chunk).
      const chunk =
        chunks.find((c) => module.test(c.facadeModuleId ?? '')) ??
        chunks.find((c) => c.moduleIds.some((id) => module.test(id)));
      if (!chunk) throw new Error(`shell: no chunk holds ${module.source}`);
      visit(chunk.fileName);
    }
    out[path.toLowerCase()] = [...files].map((f) => `/${f}`);
  }
  return out;
}

/** Demo mode's engine worker in the build: its entry and every chunk it needs before the engine answers. */
export interface EngineWorkerFiles {
  entry: string;
  chunks: string[];
}

const ENGINE_WORKER = /^assets\/engine\.worker-[\w-]+\.js$/;
/**
 * createEngine's own dynamic imports (engine/index.ts: engine/engine.ts and engine/routes.ts) when they are
 * chunks of their own; vite.config.ts puts them in the `engine-boot` chunk, which the entry imports.
 */
const ENGINE_BOOT = /^(engine|routes|engine-boot)-[\w-]+\.js$/;

/**
 * The engine worker's entry and the chunks its first answer needs: the entry's static imports and
 * createEngine's dynamic ones (`import('./engine')`, `import('./routes')`), with their static imports in turn.
 * Other dynamic imports (passkey verification, the reserves' Ed25519) load when a call needs them.
 * Null when the build has no engine worker.
 */
export function engineWorkerFiles(files: Readonly<Record<string, string>>): EngineWorkerFiles | null {
  const entry = Object.keys(files).find((f) => ENGINE_WORKER.test(f));
  if (!entry) return null;
  const dir = entry.slice(0, entry.lastIndexOf('/') + 1);
  const imports = (file: string, dynamic: boolean): string[] => {
    const code = files[file] ?? '';
    const found = [...code.matchAll(/\bfrom\s*["'`]\.\/([\w.-]+\.js)["'`]/g)].map((m) => m[1] ?? '');
    if (dynamic) {
      const boot = [...code.matchAll(/\bimport\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g)]
        .map((m) => m[1] ?? '')
        .filter((name) => ENGINE_BOOT.test(name));
      found.push(...boot);
    }
    return found.map((name) => dir + name).filter((f) => f in files);
  };
  const seen = new Set<string>([entry]);
  const queue = imports(entry, true);
  while (queue.length > 0) {
    const file = queue.shift() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...imports(file, false));
  }
  seen.delete(entry);
  return { entry: `/${entry}`, chunks: [...seen].sort().map((f) => `/${f}`) };
}

export function staticShell(): Plugin {
  let shellStyles: string[] = [];
  // Live mode's app never starts the demo engine (src/api/index.ts), so its page does not either.
  let demo = true;
  return {
    name: 'strata-static-shell',
    apply: 'build',
    configResolved(config) {
      demo = config.env['VITE_API_MODE'] !== 'live';
    },
    /**
     * Once Vite has written its own tags into index.html: the app's stylesheet and the CSS of the screens the
     * shell renders become inline <style> (~6 KiB gzip), so the first paint waits for no stylesheet request.
     * The files stay in dist/ and the precache for the screens that load them; the starter script names each
     * inlined file in a disabled stylesheet link once the shell has painted (see startAfterFirstPaint).
     */
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type !== 'asset') return;
        const inlinedCss: string[] = [];
        const css = (file: string) => {
          const asset = bundle[file];
          if (asset?.type !== 'asset') throw new Error(`shell: no CSS asset ${file}`);
          inlinedCss.push(`/${file}`);
          return `<style>${String(asset.source)}</style>`;
        };
        const html = String(page.source);
        const linked = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g;
        const inlined = html.replace(linked, (_, file: string) => css(file));
        const extra = shellStyles
          .filter((f) => !html.includes(f))
          .map(css)
          .join('');
        const code: Record<string, string> = {};
        for (const [file, out] of Object.entries(bundle)) {
          if (file.endsWith('.js')) code[file] = out.type === 'chunk' ? out.code : String(out.source);
        }
        const engine = demo ? engineWorkerFiles(code) : null;
        if (demo && !engine)
          throw new Error('shell: the demo build has no engine worker (assets/engine.worker-*.js)');
        page.source = startAfterFirstPaint(
          inlined.replace('</head>', `${extra}\n</head>`),
          inlinedCss,
          engine,
          routeDataChunks(bundle),
        );
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
        shellStyles = shellCss(ctx);
        return html.replace(
          ROOT_MARKUP,
          `<div id="root">${fillShell(template, served)}</div>${shellScript(data, SPLASH)}`,
        );
      },
    },
  };
}
