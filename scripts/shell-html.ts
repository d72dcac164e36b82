/**
 * The build-time shell's HTML (pure functions; scripts/vite-shell.ts runs them in the build, and
 * tests/app/shell.test.tsx in the unit suite).
 *
 * A shell route is rendered once (src/app/shell/StaticShell.tsx) with an i18next instance whose every
 * string is a marker, \u0001key\u0002: that is the route's template. `fillShell` puts one language's
 * strings (HTML-escaped) in place of the markers. index.html carries the zh-CN /home shell as markup (what
 * paints with JavaScript off) and, in an inline script that runs before first paint, every route's template
 * and the shell strings of all twenty languages; the script picks the route and the stored language.
 */
import { createInstance, type i18n as I18n } from 'i18next';
import { SNAPSHOT_VERSION, STORAGE_KEYS } from '../src/lib/storage.ts';

export const MARK_OPEN = '\u0001';
export const MARK_CLOSE = '\u0002';
const MARKER = new RegExp(`${MARK_OPEN}([\\w.-]+)${MARK_CLOSE}`, 'g');

export type TranslationTree = { [key: string]: string | TranslationTree };

/** An initialised i18next whose t(key) returns the key between markers. */
export async function markerI18n(): Promise<I18n> {
  const i18n = createInstance();
  await i18n.init({
    lng: 'shell',
    resources: { shell: { translation: {} } },
    interpolation: { escapeValue: false },
    parseMissingKeyHandler: (key: string) => `${MARK_OPEN}${key}${MARK_CLOSE}`,
    react: { useSuspense: false },
  });
  return i18n;
}

/** The keys a template uses, in order of first use. */
export function templateKeys(template: string): string[] {
  return [...new Set([...template.matchAll(MARKER)].map((m) => m[1] ?? ''))];
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

function lookup(tree: TranslationTree, key: string): string | undefined {
  let node: string | TranslationTree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** One language's shell strings, HTML-escaped; throws on a key the locale lacks (the build fails). */
export function shellStrings(tree: TranslationTree, keys: string[], lang: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = lookup(tree, key);
    if (value === undefined) throw new Error(`shell: locales/${lang} has no "${key}"`);
    out[key] = escapeHtml(value);
  }
  return out;
}

export function fillShell(template: string, strings: Record<string, string>): string {
  return template.replace(MARKER, (_, key: string) => strings[key] ?? '');
}

/** The key of /home's template for a logged-in member. */
export const MEMBER_HOME = '/home#member';

export interface ShellData {
  /** Route path -> template (MEMBER_HOME: /home as a member sees it; `{{name}}` is their stored name). */
  templates: Record<string, string>;
  /** Language -> key -> escaped string. */
  strings: Record<string, Record<string, string>>;
  /** Route path -> its title key (document.title before the app sets it). */
  titles: Record<string, string>;
  /** Route path -> [where the route guard sends a guest, where it sends a member] (src/app/guard.ts). */
  guard: Record<string, [string, string]>;
  /** What the markup in #root already is. */
  served: { path: string; lang: string };
}

/**
 * The route's last screen (src/lib/snapshot.ts): each kept region's markup goes back into the shell's region of
 * the same name, when it was taken in this language by this member (`w`, '' for a guest). Runs after the
 * template is in place, before the first paint.
 */
const RESTORE =
  `try{var q=JSON.parse(localStorage.getItem(${JSON.stringify(STORAGE_KEYS.snapshot)}+p+location.search)||'null');` +
  `if(q&&q.v===${SNAPSHOT_VERSION}&&q.lang===h.lang&&q.who===w&&q.parts)for(var k in q.parts)` +
  `if(/^[\\w-]+$/.test(k)&&typeof q.parts[k]==='string'){var x=r.querySelector('[data-snapshot="'+k+'"]');if(x)x.innerHTML=q.parts[k];}}catch(e){}`;

/**
 * The inline script placed right after #root: picks the template of location.pathname ('/' is /home; where
 * the route guard sends a guest or a member, by the stored 'strata.user'), and the language the head script put on <html lang>, and replaces #root's markup when it differs from the
 * served one. Other routes get the splash, as before. JSON.stringify escapes "<" so no "</script>" can
 * appear; the markers are written as \u escapes.
 */
/**
 * The shell script also leaves the route it resolved (lower case, `/` as /home, after the guard: a guest's
 * /user is /login) in `window.__strataRoute`, where the starter (scripts/vite-shell.ts) looks up the route's
 * preloads.
 */
export function shellScript(data: ShellData, splash: string): string {
  // The script looks routes up by the lower-cased path (as the router matches them): /order/transferRecord too.
  const lower = <T>(byPath: Record<string, T>) =>
    Object.fromEntries(Object.entries(byPath).map(([path, value]) => [path.toLowerCase(), value]));
  const guard = Object.fromEntries(
    Object.entries(data.guard).map(([path, [guest, member]]) => [
      path.toLowerCase(),
      [guest.toLowerCase(), member.toLowerCase()],
    ]),
  );
  const shell = { ...data, templates: lower(data.templates), titles: lower(data.titles), guard, splash };
  const json = JSON.stringify(shell).replace(/</g, '\\u003c');
  return `<script>(function(){try{var D=${json};var d=document,h=d.documentElement,p=location.pathname.replace(/\\/+$/,'').toLowerCase()||'/';if(p==='/')p='/home';var u=localStorage.getItem('strata.user'),g=D.guard[p];if(g)p=g[u?1:0];window.__strataRoute=p;var l=D.strings[h.lang]?h.lang:D.served.lang,s=D.strings[l],t=D.templates[p],r=d.getElementById('root');if(!r)return;if(!t){r.innerHTML=D.splash;return;}if(D.titles[p]){var e=d.createElement('textarea');e.innerHTML=s[D.titles[p]]+' - '+s['common.appName'];d.title=e.value;}var n=null,w='';try{var j=u&&JSON.parse(u);n=j&&j.username;w=j&&j.id!=null?String(j.id):''}catch(e){}if(p==='/home'&&u&&D.templates['${MEMBER_HOME}']!==undefined)t=D.templates['${MEMBER_HOME}'];else if(p===D.served.path&&l===D.served.lang)t='';if(t)r.innerHTML=t.replace(/\\u0001([\\w.-]+)\\u0002/g,function(_,k){return s[k]||''}).replace(/\\{\\{name\\}\\}/g,String(n||'').replace(/[&<>"']/g,function(c){return '&#'+c.charCodeAt(0)+';'}));${RESTORE}}catch(e){}})();</script>`;
}
