import { preview } from 'vite';
import { chromium } from 'playwright-core';
const server = await preview({ preview: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' });
const a = server.httpServer.address() as { port: number };
const origin = `http://127.0.0.1:${a.port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const cases = [
  { name: 'zh-CN', lang: null, theme: null, js: false, path: '/home' },
  { name: 'en-US-dark', lang: 'en-US', theme: 'dark', js: true, block: true, path: '/home' },
  { name: 'ar-SA', lang: 'ar-SA', theme: null, js: true, block: true, path: '/home' },
  { name: 'fr-FR-login-noapp', lang: 'fr-FR', theme: null, js: true, block: true, path: '/login' },
  { name: 'de-DE-market-js', lang: 'de-DE', theme: null, js: true, path: '/market' },
];
for (const c of cases) {
  // Storage can only be seeded from a page with JS; use a JS context first on the same origin.
  const ctx = await browser.newContext({ javaScriptEnabled: c.js, viewport: { width: 390, height: 844 } });
  await ctx.addInitScript(({ lang, theme }) => { if (lang) localStorage.setItem('strata.lang', lang); if (theme) localStorage.setItem('strata.theme', theme); }, { lang: c.lang, theme: c.theme });
  const page = await ctx.newPage();
  if ((c as {block?: boolean}).block) await page.route('**/assets/*.js', (r) => r.abort());
  await page.goto(origin + c.path);
  await page.waitForTimeout(c.js && !(c as {block?: boolean}).block ? 3000 : 500);
  await page.screenshot({ path: `/tmp/perf14/${c.name}.png` });
  await ctx.close();
}
await browser.close();
await server.close();
