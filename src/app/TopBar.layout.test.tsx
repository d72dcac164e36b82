// @vitest-environment node
/**
 * The top bar at 360 px (issue 26: "Confirm subscri…", "Prod…" in de-DE): every screen's title, beside the
 * back button, the member's sync chip and the demo badge, is shown whole in en-US, de-DE, ar-SA and zh-CN,
 * on one line or two, never cut. Measured in headless Chromium with the app's own stylesheets.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';

const LOCALES = ['en-US', 'de-DE', 'ar-SA', 'zh-CN'] as const;
const css = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const STYLES = [
  css('../styles/base.css'),
  css('../styles/global.css').replace(/@import[^;]+;/g, ''),
  css('../sync/sync.css'),
].join('\n');

type Strings = Record<string, Record<string, unknown>>;
const stringsOf = (locale: string) => JSON.parse(css(`../../locales/${locale}/translation.json`)) as Strings;
const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One top bar per screen title, as AppShell draws it for a signed-in member on a screen with a back button. */
function page(locale: string): string {
  const strings = stringsOf(locale);
  const routes = strings.routes as Record<string, string>;
  const state = (strings.offline as { state: Record<string, string> }).state;
  const sizer = [state.online!, state.syncing!, state.offline!].reduce((a, b) =>
    b.length > a.length ? b : a,
  );
  const badge = (strings.demo as Record<string, string>).badge!;
  const bars = Object.values(routes)
    .map(
      (title) => `<header class="topbar">
  <div class="topbar-start"><button type="button" class="icon-button back"><svg class="icon" width="24" height="24"></svg></button></div>
  <h1 class="topbar-title">${escape(title)}</h1>
  <div class="topbar-end"><button type="button" class="sync-chip sync-syncing"><span class="sync-dot"></span><span class="stable-label" data-sizer="${escape(sizer)}"><span>${escape(state.syncing!)}</span></span></button><button type="button" class="demo-badge">${escape(badge)}</button></div>
</header>`,
    )
    .join('\n');
  const dir = locale === 'ar-SA' ? 'rtl' : 'ltr';
  return `<!doctype html><html lang="${locale}" dir="${dir}"><head><meta name="viewport" content="width=device-width"><style>${STYLES}</style></head><body>${bars}</body></html>`;
}

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
});
afterAll(async () => {
  await browser?.close();
});

describe('the top bar shows every screen title whole at 360 px', () => {
  it.each(LOCALES)('%s', async (locale) => {
    const context = await browser.newContext({ viewport: { width: 360, height: 800 }, locale });
    const tab = await context.newPage();
    await tab.setContent(page(locale));
    const titles = await tab.$$eval('.topbar', (bars) =>
      bars.map((bar) => {
        const title = bar.querySelector('.topbar-title')!;
        const end = bar.querySelector('.topbar-end')!.getBoundingClientRect();
        const box = title.getBoundingClientRect();
        return {
          text: title.textContent ?? '',
          cut: title.scrollWidth > title.clientWidth + 1 || title.scrollHeight > title.clientHeight + 1,
          lines: Math.round(box.height / Number.parseFloat(getComputedStyle(title).lineHeight)),
          overlaps:
            document.documentElement.dir === 'rtl' ? box.left < end.right - 0.5 : box.right > end.left + 0.5,
        };
      }),
    );
    await context.close();
    expect(titles.length).toBeGreaterThan(40);
    for (const t of titles) {
      expect(t.cut, `"${t.text}" whole`).toBe(false);
      expect(t.lines, `"${t.text}" on one or two lines`).toBeLessThanOrEqual(2);
      expect(t.overlaps, `"${t.text}" clear of the chip and badge`).toBe(false);
    }
  });
});
