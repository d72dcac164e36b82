/**
 * Layout tests in headless Chromium at 360 px with the app's own stylesheets (src/**\/*.layout.test.tsx):
 * one browser per file, a page per locale, the markup rendered with the given CSS files.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The locales every layout test measures: long words (de-DE), right to left (ar-SA), CJK (zh-CN). */
export const LAYOUT_LOCALES = ['en-US', 'de-DE', 'ar-SA', 'zh-CN'] as const;

const source = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The app's base and global stylesheets, then `files` (paths from the repository's root). */
export function appStyles(...files: string[]): string {
  return [
    source('src/styles/base.css'),
    source('src/styles/global.css').replace(/@import[^;]+;/g, ''),
    ...files.map(source),
  ].join('\n');
}

/** A locale's strings (locales/<locale>/translation.json). */
export function stringsOf<T>(locale: string): T {
  return JSON.parse(source(`locales/${locale}/translation.json`)) as T;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A document in `locale` (ar-SA right to left) with `styles` and `body`. */
export function layoutPage(locale: string, styles: string, body: string): string {
  const dir = locale === 'ar-SA' || locale === 'fa-IR' ? 'rtl' : 'ltr';
  return `<!doctype html><html lang="${locale}" dir="${dir}"><head><meta name="viewport" content="width=device-width"><style>${styles}</style></head><body>${body}</body></html>`;
}

/**
 * Starts Chromium for the file's tests; `open(locale, html)` shows `html` in a 360 px tab, runs `read` on it
 * and closes the tab.
 */
export function phoneBrowser(): {
  open<T>(locale: string, html: string, read: (tab: Page) => Promise<T>): Promise<T>;
} {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async open(locale, html, read) {
      if (!browser) throw new Error('phoneBrowser: Chromium is not started (call it at the top of the file)');
      const context = await browser.newContext({ viewport: { width: 360, height: 800 }, locale });
      try {
        const tab = await context.newPage();
        await tab.setContent(html);
        return await read(tab);
      } finally {
        await context.close();
      }
    },
  };
}
