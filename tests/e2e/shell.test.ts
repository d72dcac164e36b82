/**
 * The shell before JavaScript (docs/PWA.md, scripts/vite-shell.ts) in headless Chromium against the
 * production build: with JavaScript off, /home paints the header, the tabs and the demo badge in zh-CN;
 * with only the app's bundles withheld, the inline shell script shows the stored language (or, with none
 * stored, the browser's preferred one of the twenty) and the opened route; no JavaScript is fetched before the first contentful paint; and once the app runs it takes over the
 * same layout without moving it (no layout shift).
 */
import { describe, expect, it } from 'vitest';
import { baseURL } from './browser';
import { newEnglishPage, register, useBrowser } from './journey';

const browser = useBrowser();

describe('the shell paints before the JavaScript', () => {
  it('with JavaScript disabled, /home shows the header, the five tabs and the demo badge in zh-CN', async () => {
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 375, height: 812 },
      baseURL: baseURL(),
    });
    try {
      const page = await context.newPage();
      await page.goto('/home');
      await expect
        .poll(() => page.locator('h1.topbar-title').textContent(), { timeout: 15_000 })
        .toBe('首页');
      expect(await page.locator('.demo-badge').textContent()).toBe('演示');
      expect(await page.locator('.demo-badge').isVisible()).toBe(true);
      const tabs = await page.locator('nav.tabbar a.tab span').allTextContents();
      expect(tabs).toEqual(['首页', '行情', '交易', '理财', '资产']);
      expect(await page.locator('nav.tabbar a[aria-current="page"]').getAttribute('href')).toBe('/home');
      // The /home layout: the hero with the demo disclaimer, the shortcuts and the quotes card loading.
      expect(await page.locator('.hero .hero-demo').isVisible()).toBe(true);
      expect(await page.locator('.shortcut-grid li').count()).toBe(6);
      expect(await page.locator('nav.tabbar').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('without the app bundles, the stored language (ar-SA, right to left) and the opened route paint', async () => {
    const context = await browser().newContext({ viewport: { width: 375, height: 812 }, baseURL: baseURL() });
    try {
      await context.addInitScript(() => localStorage.setItem('strata.lang', 'ar-SA'));
      const page = await context.newPage();
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto('/login');
      await expect
        .poll(() => page.locator('h1.topbar-title').textContent(), { timeout: 15_000 })
        .toBe('تسجيل الدخول');
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      expect(await page.locator('.demo-badge').textContent()).toBe('تجريبي');
      expect(await page.locator('button.back').count()).toBe(1);
      expect(await page.locator('nav.tabbar').count()).toBe(0);
      // /user is for members only: a guest's shell is the screen the guard sends them to.
      await page.goto('/user');
      await expect
        .poll(() => page.locator('h1.topbar-title').textContent(), { timeout: 15_000 })
        .toBe('تسجيل الدخول');
    } finally {
      await context.close();
    }
  });

  it('with nothing stored, a browser preferring German paints the shell in German, the switch in the header', async () => {
    const context = await browser().newContext({
      viewport: { width: 375, height: 812 },
      locale: 'de-DE',
      baseURL: baseURL(),
    });
    try {
      const page = await context.newPage();
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto('/home');
      await expect
        .poll(() => page.locator('h1.topbar-title').textContent(), { timeout: 15_000 })
        .toBe('Start');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de-DE');
      expect(await page.locator('header .lang-button').getAttribute('aria-label')).toBe('Sprache');
    } finally {
      await context.close();
    }
  });

  it('no JavaScript file is requested before the shell has painted its first text, and no inlined CSS after', async () => {
    // A browser preferring Chinese (the product's default language, the one the shell is built in).
    const context = await browser().newContext({
      viewport: { width: 375, height: 812 },
      locale: 'zh-CN',
      baseURL: baseURL(),
    });
    // When the page creates its engine worker: the worker's own script request is dispatched by the browser
    // some time after `new Worker` (160 ms after the entry had arrived in one run on 2 cores), so the order
    // the starter guarantees is read where it happens, in the page.
    await context.addInitScript(() => {
      const Base = window.Worker;
      const w = window as unknown as { Worker: typeof Worker; __workerCreatedAt?: number };
      w.Worker = class extends Base {
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          w.__workerCreatedAt ??= performance.now();
        }
      };
    });
    try {
      const page = await context.newPage();
      await page.goto('/home');
      // The app has started once the quotes card leaves the shell's loading rows.
      await page.locator('.home a.quote-row, .home .state-error').first().waitFor();
      const timing = await page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => e.name.endsWith('.js'))
          .map((e) => ({ name: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd })),
      }));
      expect(timing.fcp).not.toBeNull();
      // The entry, its preloads and the locale parts all went out, every one of them after the first paint.
      expect(timing.scripts.map((s) => s.name)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/assets\/index-/),
          expect.stringMatching(/locale-zh-CN-core/),
        ]),
      );
      expect(timing.scripts.filter((s) => s.start < (timing.fcp ?? 0))).toEqual([]);
      // The data path in one wave (docs/PWA.md "The data path"): the engine worker is created before the app's
      // entry is even requested, and its boot chunk, /home's quotes card and the device database are requested
      // before the entry has arrived, not after React has rendered.
      const entry = timing.scripts.find((s) => /^\/assets\/index-/.test(s.name));
      const workerCreatedAt = await page.evaluate(
        () => (window as unknown as { __workerCreatedAt?: number }).__workerCreatedAt ?? Infinity,
      );
      expect(workerCreatedAt).toBeLessThan(entry?.start ?? 0);
      const startOf = (file: RegExp) => timing.scripts.find((s) => file.test(s.name))?.start ?? Infinity;
      for (const file of [/\/engine-boot-/, /\/QuotesSummary-/, /\/device-[\w-]{8}\.js$/])
        expect(startOf(file), String(file)).toBeLessThan(entry?.end ?? 0);
      // The stylesheets the shell carries inline are not fetched again when /home's chunks load (that would
      // add a second copy of their rules and a whole-page style recalculation after the app starts).
      const inlined = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][disabled]')].map(
          (l) => new URL(l.href).pathname,
        ),
      );
      expect(inlined).toEqual(expect.arrayContaining([expect.stringMatching(/^\/assets\/index-.*\.css$/)]));
      const css = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name).pathname)
          .filter((name) => name.endsWith('.css')),
      );
      expect(css.filter((name) => inlined.includes(name))).toEqual([]);

      // A guest's /user opens the login form, which reads no data: the starter leaves the engine worker to
      // the app (created on its first call, if any), so the worker does not compete with the app's start.
      const login = await context.newPage();
      await login.goto('/user');
      await login.locator('form input[type="password"]').waitFor();
      const started = await login.evaluate(() => {
        const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) =>
          /\/assets\/index-/.test(new URL(e.name).pathname),
        );
        const w = window as unknown as { __workerCreatedAt?: number };
        return { entry: entry?.startTime ?? null, worker: w.__workerCreatedAt ?? Infinity };
      });
      expect(started.entry).not.toBeNull();
      expect(started.worker).toBeGreaterThan(started.entry ?? Infinity);
      // Nor does it preload the member's screen: the guard sends the guest to /login.
      const guestFiles = await login.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
      );
      expect(guestFiles.filter((f) => /\/AssetsPage-/.test(f))).toEqual([]);

      // A member's /user and records: the screen and the device sync that fills its figures go out in the
      // starter's wave, before the entry has arrived, not in waves after the app has started; the path is
      // matched as the router matches it (any case, a trailing slash).
      const member = await context.newPage();
      await member.goto('/favicon.svg');
      await member.evaluate(() =>
        localStorage.setItem('strata.user', JSON.stringify({ id: '1', token: 't', username: 'member' })),
      );
      for (const [path, screen] of [
        ['/user', /\/AssetsPage-/],
        ['/Order/TransferRecord/', /\/TransferRecordsPage-/],
      ] as const) {
        await member.goto(path);
        await member.waitForFunction(() =>
          performance.getEntriesByType('resource').some((e) => /\/assets\/index-/.test(e.name)),
        );
        const scripts = await member.evaluate(() =>
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
            name: new URL(e.name).pathname,
            start: e.startTime,
            end: e.responseEnd,
          })),
        );
        const entryEnd = scripts.find((s) => /^\/assets\/index-/.test(s.name))?.end ?? 0;
        for (const file of [screen, /\/app-[\w-]{8}\.js$/, /\/xstate/])
          expect(
            scripts.find((s) => file.test(s.name))?.start ?? Infinity,
            `${path} ${String(file)}`,
          ).toBeLessThan(entryEnd);
      }
    } finally {
      await context.close();
    }
  });

  it('the app takes over /home without moving the header or the tabs (no layout shift)', async () => {
    const context = await browser().newContext({ viewport: { width: 375, height: 812 }, baseURL: baseURL() });
    try {
      await context.addInitScript(() => {
        localStorage.setItem('strata.lang', 'en-US');
        const w = window as unknown as { __shifts: number; __shell: string };
        w.__shifts = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
            w.__shifts += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        // Where the shell put the header and the tabs, before any of the app's JavaScript has run.
        document.addEventListener('DOMContentLoaded', () => {
          const box = (s: string) => JSON.stringify(document.querySelector(s)?.getBoundingClientRect());
          w.__shell = box('header.topbar') + box('nav.tabbar');
        });
      });
      const page = await context.newPage();
      await page.goto('/home');
      // The app has taken over once the quotes card leaves the shell's loading rows.
      await page.locator('.home a.quote-row, .home .state-error').first().waitFor();
      const shell = await page.evaluate(() => (window as unknown as { __shell: string }).__shell);
      expect(shell).toContain('"height"');
      const app = await page.evaluate(() => {
        const box = (s: string) => JSON.stringify(document.querySelector(s)?.getBoundingClientRect());
        return box('header.topbar') + box('nav.tabbar');
      });
      expect(app).toBe(shell);
      expect(await page.locator('h1.topbar-title').textContent()).toBe('Home');
      expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("a returning visitor's /home paints the last quote rows before any app code, and the app keeps them in place", async () => {
    const context = await browser().newContext({ viewport: { width: 375, height: 812 }, baseURL: baseURL() });
    try {
      await context.addInitScript(() => localStorage.setItem('strata.lang', 'en-US'));
      const visit = await context.newPage();
      await visit.goto('/home');
      const rows = visit.locator('.home a.quote-row');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(4);
      // Leaving the page keeps the screen it showed (src/lib/snapshot.ts).
      await visit.goto('about:blank');
      await visit.close();

      // Without the app's code, the shell alone shows those rows, figures and all.
      const bare = await context.newPage();
      await bare.route('**/assets/*.js', (route) => route.abort());
      await bare.goto('/home');
      const price = bare.locator('.home a.quote-row .quote-price').first();
      await expect.poll(() => price.textContent(), { timeout: 15_000 }).toMatch(/\d/);
      expect(await bare.locator('.home a.quote-row').count()).toBe(4);
      expect(await bare.locator('.home .quote-skeleton').count()).toBe(0);
      await bare.close();

      // With it, the app takes over from them: no loading rows in between, nothing moves, prices go live.
      await context.addInitScript(() => {
        const w = window as unknown as { __shifts: number; __loading: boolean };
        w.__shifts = 0;
        w.__loading = false;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
            w.__shifts += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        document.addEventListener('DOMContentLoaded', () => {
          new MutationObserver(() => {
            if (document.querySelector('.home .quote-skeleton')) w.__loading = true;
          }).observe(document.body, { childList: true, subtree: true });
        });
      });
      const page = await context.newPage();
      await page.goto('/home');
      const prices = page.locator('.home a.quote-row .quote-price');
      await expect.poll(() => prices.count(), { timeout: 15_000 }).toBe(4);
      const first = await prices.allTextContents();
      await expect.poll(() => prices.allTextContents(), { timeout: 30_000 }).not.toEqual(first);
      const seen = await page.evaluate(() => {
        const w = window as unknown as { __shifts: number; __loading: boolean };
        return { shifts: w.__shifts, loading: w.__loading };
      });
      expect(seen).toEqual({ shifts: 0, loading: false });
    } finally {
      await context.close();
    }
  });

  it("a member's /market and /user start without moving anything: loading rows, sync chip, live prices", async () => {
    const { context, page } = await newEnglishPage(browser());
    try {
      await register(page, `cls${Date.now().toString(36)}`);
      // From here on, every page records its layout shifts with the elements that moved.
      await context.addInitScript(() => {
        const w = window as unknown as { __shifts: string[] };
        w.__shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            sources: { node?: Node | null }[];
          })[])
            w.__shifts.push(`${entry.value}: ${entry.sources.map((s) => s.node?.textContent).join(' | ')}`);
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const shifts = () => page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts);
      const chip = page.getByTestId('sync-status');

      await page.goto('/market');
      const prices = page.locator('.market a.quote-row .quote-price strong');
      await expect.poll(() => prices.count(), { timeout: 20_000 }).toBe(8);
      await expect.poll(() => chip.textContent(), { timeout: 20_000 }).toBe('Online');
      // The feed's next tickers: the prices change in place (a round price keeps its decimals).
      const first = await prices.allTextContents();
      await expect.poll(() => prices.allTextContents(), { timeout: 20_000 }).not.toEqual(first);
      expect(await shifts()).toEqual([]);

      await page.goto('/user');
      await expect
        .poll(() => page.locator('h1.topbar-title').textContent(), { timeout: 15_000 })
        .toBe('Assets');
      await expect.poll(() => chip.textContent(), { timeout: 20_000 }).toBe('Online');
      expect(await shifts()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
