/**
 * The build-time shell (scripts/vite-shell.ts, scripts/shell-html.ts, src/app/shell/StaticShell.tsx):
 * its templates carry each language's strings, they match what the React app renders (so the app takes
 * over the same markup), and the inline script picks the opened route, the route guard's answer and the
 * stored language.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import {
  fillShell,
  MARK_OPEN,
  MEMBER_HOME,
  markerI18n,
  shellScript,
  shellStrings,
  templateKeys,
  type ShellData,
  type TranslationTree,
} from '../../scripts/shell-html';
import { SHELL_ROUTES, renderShell } from '../../src/app/shell/StaticShell';
import { guardRedirect } from '../../src/app/guard';
import { SCREENS, isTabPath } from '../../src/app/paths';
import { renderApp, TEST_USER } from '../../src/app/test-utils';
import { forgetSnapshots, takeSnapshot } from '../../src/lib/snapshot';

const LOCALES = join(import.meta.dirname, '../../locales');
const locale = (lang: string) =>
  JSON.parse(readFileSync(join(LOCALES, lang, 'translation.json'), 'utf8')) as TranslationTree;

let templates: Record<string, string> = {};
beforeAll(async () => {
  const i18n = await markerI18n();
  templates = Object.fromEntries(SHELL_ROUTES.map((path) => [path, renderShell(path, i18n)]));
  templates[MEMBER_HOME] = renderShell('/home', i18n, true);
});
afterEach(cleanup);

function shellDom(path: string, lang: string): HTMLElement {
  const template = templates[path] ?? '';
  const host = document.createElement('div');
  host.innerHTML = fillShell(template, shellStrings(locale(lang), templateKeys(template), lang));
  return host;
}

/** The markup of the parts the shell paints, for comparison (React's and the build's). */
/**
 * The header without the member's sync chip: its state (online, offline, N waiting, last sync) lives on the
 * device and is known only once the app runs, so the shell leaves it out and the app adds it beside the badge.
 */
function headerOf(root: ParentNode): string | undefined {
  const header = root.querySelector('header.topbar')?.cloneNode(true) as Element | undefined;
  header?.querySelector('[data-testid="sync-status"]')?.remove();
  return header?.outerHTML;
}

function parts(root: ParentNode): Record<string, string | undefined> {
  const html = (selector: string) => root.querySelector(selector)?.outerHTML;
  return {
    skip: html('.skip-link'),
    header: headerOf(root),
    tabs: html('nav.tabbar'),
    main: root.querySelector('main')?.className,
    hero: html('.home .hero'),
    shortcuts: html('.home .card'),
    quotesHead: html('.home .section-head'),
  };
}

/** Data-free parts of the screens the shell renders as themselves (src/app/shell/StaticShell.tsx). */
const SCREEN_PARTS: Record<string, string[]> = {
  '/market': ['.market-note .demo-note', '#quotes-heading', '.market .segmented', '.market .quote-head'],
  '/user': ['#assets-total', '.assets .shortcut-grid', '#assets-account', '.assets .menu-list'],
};

/** Text of the parts whose markup carries per-render ids (useId): the record filters' labels and choices. */
const SCREEN_TEXTS: Record<string, string> = {
  '/order/transferRecord': '.records .record-filters label, .records .record-filters option',
};

describe('the build-time shell', () => {
  it('carries the translated tab labels, title and demo badge of every language', () => {
    const languages = readdirSync(LOCALES);
    expect(languages).toHaveLength(20);
    for (const lang of languages) {
      const tree = locale(lang);
      const nav = tree.nav as Record<string, string>;
      const dom = shellDom('/home', lang);
      const tabs = [...dom.querySelectorAll('nav.tabbar .tab span')].map((s) => s.textContent);
      expect(tabs, lang).toEqual([nav.home, nav.market, nav.contract, nav.financial, nav.user]);
      expect(dom.querySelector('.demo-badge')?.textContent, lang).toBe(
        (tree.demo as Record<string, string>).badge,
      );
      expect(dom.querySelector('h1')?.textContent, lang).toBe((tree.routes as Record<string, string>).home);
      expect(dom.innerHTML, lang).not.toContain(MARK_OPEN);
    }
    expect(shellDom('/home', 'de-DE').querySelector('nav.tabbar')?.getAttribute('aria-label')).toBe(
      (locale('de-DE').nav as Record<string, string>).tabs,
    );
  });

  it('is in step with the React app on /home (guest) and /login', async () => {
    await renderApp('/home');
    await screen.findByRole('heading', { level: 2, name: 'Your USDT, in one place' });
    expect(parts(shellDom('/home', 'en-US'))).toEqual(parts(document.body));
    cleanup();
    await renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    const shell = parts(shellDom('/login', 'en-US'));
    expect(shell.header).toBeDefined();
    expect(shell).toEqual(parts(document.body));
  });

  it("is in step with the React app on a member's /home (the balance shows once the app has it)", async () => {
    await renderApp('/home', { user: TEST_USER });
    await screen.findByRole('heading', { level: 2, name: 'Hello, alice' });
    const shell = shellDom(MEMBER_HOME, 'en-US');
    shell.innerHTML = shell.innerHTML.replace(/\{\{name\}\}/g, 'alice');
    expect(shell.querySelector('.hero-balance strong')?.textContent).toBe('-- USDT');
    const app = parts(document.body);
    expect(app.hero).toContain('0.00 USDT');
    // Only the figure differs: its text, its title and its machine-readable value (the shell's "-").
    const unknown = app.hero?.replaceAll('0.00 USDT', '-- USDT').replace('value="0"', 'value="-"');
    expect(parts(shell)).toEqual({ ...app, hero: unknown });
  });

  it('is in step with the React app on every route a member opens directly', async () => {
    for (const path of SHELL_ROUTES.filter((p) => p !== '/home' && p !== '/login')) {
      await renderApp(path, { user: TEST_USER });
      const title = SCREENS.find((s) => s.path === path)?.titleKey.split('.')[1] ?? '';
      const routes = locale('en-US').routes as Record<string, string>;
      await screen.findByRole('heading', { level: 1, name: routes[title] });
      const shell = parts(shellDom(path, 'en-US'));
      const app = parts(document.body);
      // A tab route has the tab bar; a record list (/order/transferRecord) has the back button instead.
      expect(shell.tabs !== undefined, path).toBe(isTabPath(path));
      expect([shell.skip, shell.header, shell.tabs, shell.main], path).toEqual([
        app.skip,
        app.header,
        app.tabs,
        app.main,
      ]);
      // /market and /user paint their own layout in the shell: the parts that do not depend on data are
      // the app's own markup (the rest holds "--" or the loading state until the device answers).
      const fixed = SCREEN_PARTS[path] ?? [];
      const textsOf = SCREEN_TEXTS[path];
      await waitFor(() =>
        expect(
          fixed.every((s) => document.querySelector(s)) &&
            (!textsOf || document.querySelector(textsOf) !== null),
        ).toBe(true),
      );
      const markup = (root: ParentNode) => fixed.map((s) => root.querySelector(s)?.outerHTML);
      expect(markup(shellDom(path, 'en-US')).every(Boolean), path).toBe(true);
      expect(markup(shellDom(path, 'en-US')), path).toEqual(markup(document.body));
      const texts = (root: ParentNode) =>
        textsOf ? [...root.querySelectorAll(textsOf)].map((e) => e.textContent) : [];
      expect(texts(shellDom(path, 'en-US')), path).toEqual(texts(document.body));
      if (textsOf) expect(texts(document.body).length, path).toBeGreaterThan(3);
      cleanup();
    }
  });
});

describe('the inline shell script', () => {
  const data = (): ShellData => {
    const keys = [
      ...new Set([
        ...Object.values(templates).flatMap(templateKeys),
        'common.appName',
        'routes.home',
        'routes.login',
        'routes.market',
      ]),
    ];
    const strings = Object.fromEntries(
      ['zh-CN', 'en-US', 'ar-SA'].map((lang) => [lang, shellStrings(locale(lang), keys, lang)]),
    );
    const titles = Object.fromEntries(
      SHELL_ROUTES.map((p) => [p, SCREENS.find((s) => s.path === p)?.titleKey ?? '']),
    );
    const target = (to: string | null, p: string) => (to === null ? p : to === '/' ? '/home' : to);
    const guard = Object.fromEntries(
      SHELL_ROUTES.map((p) => [p, [target(guardRedirect(p, false), p), target(guardRedirect(p, true), p)]]),
    ) as ShellData['guard'];
    return { templates, strings, titles, guard, served: { path: '/home', lang: 'zh-CN' } };
  };

  /** Runs the script on `path`; `user`: TEST_USER is stored, none is, or 'keep' what the test stored. */
  function run(path: string, lang: string, user: boolean | 'keep'): HTMLElement {
    history.replaceState(null, '', path);
    document.documentElement.lang = lang;
    if (user === true) localStorage.setItem('strata.user', JSON.stringify(TEST_USER));
    else if (user === false) localStorage.removeItem('strata.user');
    document.body.innerHTML = '<div id="root">served</div>';
    const code = shellScript(data(), '<div class="splash">Strata</div>').replace(
      /^<script>|<\/script>$/g,
      '',
    );
    new Function(code)();
    localStorage.removeItem('strata.user');
    return document.getElementById('root') as HTMLElement;
  }

  it('shows the opened route in the stored language and sets the title', () => {
    const root = run('/market', 'ar-SA', true);
    const ar = locale('ar-SA');
    expect(root.querySelector('h1')?.textContent).toBe((ar.routes as Record<string, string>).market);
    expect(root.querySelector('nav.tabbar a[aria-current="page"]')?.getAttribute('href')).toBe('/market');
    expect(document.title).toBe(`${(ar.routes as Record<string, string>).market} - Strata`);
  });

  it("shows the guard's screen: /login for a guest on /user, /home for a member on /login", () => {
    expect(run('/user', 'en-US', false).querySelector('h1')?.textContent).toBe('Log in');
    expect(run('/login', 'en-US', true).querySelector('h1')?.textContent).toBe('Home');
    // A route whose path is not all lower case (the script looks routes up lower-cased, as the router matches).
    const records = (locale('en-US').routes as Record<string, string>).orderTransferRecord;
    const member = run('/order/transferRecord', 'en-US', true);
    expect(member.querySelector('h1')?.textContent).toBe(records);
    expect(member.querySelector('[data-snapshot="records"]')).not.toBeNull();
    expect(run('/order/transferRecord', 'en-US', false).querySelector('h1')?.textContent).toBe('Log in');
  });

  it("shows a member's /home with their stored name, escaped, and no guest invitation", () => {
    const root = run('/home', 'en-US', true);
    expect(root.querySelector('#hero-title')?.textContent).toBe('Hello, alice');
    expect(root.querySelector('.hero-actions')).toBeNull();
    localStorage.setItem('strata.user', JSON.stringify({ ...TEST_USER, username: '<img src=x>' }));
    const html = run('/home', 'en-US', 'keep').querySelector('#hero-title')?.innerHTML;
    expect(html).toBe('Hello, &lt;img src=x&gt;');
  });

  it("puts back the route's last screen, taken in the same language by the same member, before any app code", () => {
    const ROWS = '<ul class="quote-list"><li><span elementtiming="quote-row">131,608.87</span></li></ul>';
    const region = (root: HTMLElement) => root.querySelector('[data-snapshot="quotes"]') as HTMLElement;
    // A visit: the shell's loading rows, which the app replaces with quotes; the page is then hidden.
    const first = run('/home', 'en-US', false);
    expect(region(first).querySelector('.quote-skeleton')).not.toBeNull();
    region(first).innerHTML = ROWS;
    takeSnapshot(document, 1_000);
    // The next visit paints the rows from the shell; another language or a member does not.
    expect(region(run('/home', 'en-US', false)).innerHTML).toBe(ROWS);
    expect(region(run('/home', 'ar-SA', false)).querySelector('.quote-skeleton')).not.toBeNull();
    expect(region(run('/home', 'en-US', true)).querySelector('.quote-skeleton')).not.toBeNull();
    // Another shape of the stored value, or a region name that is not a plain word, is left alone.
    const kept = localStorage.getItem('strata.snap:/home') ?? '';
    localStorage.setItem('strata.snap:/home', kept.replace('"v":1', '"v":2'));
    expect(region(run('/home', 'en-US', false)).querySelector('.quote-skeleton')).not.toBeNull();
    localStorage.setItem(
      'strata.snap:/home',
      JSON.stringify({ v: 1, lang: 'en-US', who: '', at: 1, parts: { 'quotes"],x[y': ROWS } }),
    );
    expect(region(run('/home', 'en-US', false)).querySelector('.quote-skeleton')).not.toBeNull();
    // Logging out forgets every kept screen.
    localStorage.setItem('strata.snap:/home', kept);
    forgetSnapshots();
    expect(localStorage.getItem('strata.snap:/home')).toBeNull();
    expect(region(run('/home', 'en-US', false)).querySelector('.quote-skeleton')).not.toBeNull();
  });

  it('keeps the served markup for zh-CN /home and shows the splash on other routes', () => {
    expect(run('/', 'zh-CN', false).innerHTML).toBe('served');
    expect(run('/user/vip', 'en-US', true).innerHTML).toBe('<div class="splash">Strata</div>');
  });
});
