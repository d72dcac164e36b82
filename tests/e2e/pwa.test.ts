/**
 * The installable, offline-first PWA in headless Chromium against the production build: the service worker
 * takes control, the app opens offline on every route in the member's language with the member's account
 * still there (logging in again needs no network), a second build shows the update prompt (and only the
 * member's Reload applies it), and two tabs never both lead nor both open the demo engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import type { Page } from 'playwright-core';
import { newMobilePage } from './browser';
import { forgetStoredMember, useBrowser } from './journey';

const browser = useBrowser();

async function controlled(page: Page): Promise<void> {
  // clientsClaim: the first install takes over the open page without a reload.
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, {
    timeout: 30_000,
  });
}

/** Paths of every response the service worker's caches hold. */
async function cachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

/** The locks of the origin (pages and workers) as Web Locks reports them. */
async function locks(page: Page, name: string): Promise<{ held: number; pending: number }> {
  return page.evaluate(async (lockName) => {
    const state = await navigator.locks.query();
    return {
      held: (state.held ?? []).filter((l) => l.name === lockName).length,
      pending: (state.pending ?? []).filter((l) => l.name === lockName).length,
    };
  }, name);
}

describe('offline', () => {
  it('opens /home and other routes with no network, in the member language, and says it is offline', async () => {
    const { page, context } = await newMobilePage(browser());
    await page.goto('/home');
    await page.locator('.topbar-title').waitFor();
    await controlled(page);
    // The zh-CN locale chunk is runtime-cached, not precached: wait for the first-install warm-up to store it.
    await expect
      .poll(() => cachedPaths(page), { timeout: 10_000 })
      .toContainEqual(expect.stringMatching(/^\/assets\/locale-zh-CN-/));

    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.title()).toBe('首页 - Strata');
    await expect.poll(() => page.getByRole('status').filter({ hasText: '离线' }).count()).toBe(1);

    // A route never visited online still opens: navigations fall back to the precached shell.
    await page.goto('/home/more');
    await expect.poll(() => page.getByRole('heading', { name: '安装应用' }).count()).toBe(1);
    await context.close();
  });

  it("keeps the member's data: a member registered online logs in again with no network", async () => {
    const { page, context } = await newMobilePage(browser());
    await page.goto('/register');
    await controlled(page);
    const hint = page.getByText(/演示验证码：/);
    await hint.waitFor({ timeout: 15_000 });
    const code = ((await hint.textContent()) ?? '').replace(/.*：/, '').trim();
    const username = `pwa${Date.now() % 1_000_000}`;
    await page.getByLabel('用户名', { exact: true }).fill(username);
    await page.getByLabel('邮箱', { exact: true }).fill(`${username}@example.com`);
    await page.getByLabel('登录密码', { exact: true }).fill('secret123');
    await page.getByLabel('再次输入密码', { exact: true }).fill('secret123');
    await page.getByLabel('安全密钥', { exact: true }).fill('4321');
    await page.getByLabel('再次输入安全密钥', { exact: true }).fill('4321');
    await page.getByLabel('密保答案', { exact: true }).fill('blue');
    await page.getByLabel('验证码', { exact: true }).fill(code);
    await page.getByRole('button', { name: '注册' }).click();
    const stored = () => page.evaluate(() => localStorage.getItem('strata.user'));
    await expect.poll(stored, { timeout: 15_000 }).toContain(username);
    await page.goto('/home');
    const welcome = page.locator('#hero-title', { hasText: `您好，${username}` });
    await welcome.waitFor({ timeout: 15_000 });

    // No network from here on: the app opens for the member.
    await context.setOffline(true);
    await page.reload();
    await welcome.waitFor({ timeout: 15_000 });

    // Forget the session on this device and log in again: the engine's IndexedDB still holds the account.
    await forgetStoredMember(page);
    await page.goto('/login');
    await page.getByLabel('用户名、邮箱或手机号', { exact: true }).fill(username);
    await page.getByLabel('登录密码', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expect.poll(stored, { timeout: 15_000 }).toContain(username);
    await page.goto('/home');
    await welcome.waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('never caches API responses in the service worker', async () => {
    const { page, context } = await newMobilePage(browser());
    await page.goto('/home');
    await controlled(page);
    await page.evaluate(() => fetch('/api/site/getsite', { method: 'GET' }).catch(() => undefined));
    const cached = await cachedPaths(page);
    expect(cached.some((url) => url.startsWith('/api/'))).toBe(false);
    await context.close();
  });
});

describe('updates', () => {
  const servers: PreviewServer[] = [];
  let second: string;

  beforeAll(() => {
    // A second build with a changed asset: the same output with a different index.html, and the worker's
    // precache revision for it updated the way workbox-build computes it (MD5 of the file).
    second = mkdtempSync(join(tmpdir(), 'strata-dist-b-'));
    cpSync('dist', second, { recursive: true });
    const html = readFileSync(join(second, 'index.html'), 'utf8').replace(
      '</head>',
      '<meta name="strata-build" content="second" /></head>',
    );
    writeFileSync(join(second, 'index.html'), html);
    const revision = createHash('md5').update(html).digest('hex');
    const sw = readFileSync(join(second, 'sw.js'), 'utf8');
    const patched = sw.replace(/(\{url:"index\.html",revision:")[0-9a-f]+"/, `$1${revision}"`);
    if (patched === sw) throw new Error('index.html is not in the precache manifest of dist/sw.js');
    writeFileSync(join(second, 'sw.js'), patched);
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    rmSync(second, { recursive: true, force: true });
  });

  async function serve(outDir: string, port = 0): Promise<{ server: PreviewServer; origin: string }> {
    const server = await preview({
      configFile: false,
      root: process.cwd(),
      build: { outDir: resolve(outDir) },
      preview: { host: '127.0.0.1', port, strictPort: port !== 0 },
      logLevel: 'warn',
    });
    servers.push(server);
    const address = server.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('preview server has no port');
    return { server, origin: `http://127.0.0.1:${address.port}` };
  }

  it('shows "a new version is available" for a second build and applies it only on Reload', async () => {
    const first = await serve('dist');
    const { page, context } = await newMobilePage(browser());
    await page.goto(`${first.origin}/home`);
    await page.locator('.topbar-title').waitFor();
    await controlled(page);
    expect(await page.locator('meta[name="strata-build"]').count()).toBe(0);

    // The same origin now serves the second build.
    await first.server.close();
    await serve(second, Number(new URL(first.origin).port));
    await page.reload();
    const banner = page.getByTestId('pwa-update');
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.textContent()).toContain('有新版本可用');
    // No silent skipWaiting: the old version still controls the page until the member agrees.
    expect(await page.locator('meta[name="strata-build"]').count()).toBe(0);

    await Promise.all([
      page.waitForEvent('load', { timeout: 30_000 }),
      banner.getByRole('button', { name: '重新加载' }).click(),
    ]);
    await expect.poll(() => page.locator('meta[name="strata-build"]').count()).toBe(1);
    await context.close();
  });
});

describe('several tabs', () => {
  it('lets only one tab hold the leader lock, and hands it over when that tab closes', async () => {
    const { page: first, context } = await newMobilePage(browser());
    await first.goto('/home');
    await first.locator('.topbar-title').waitFor();
    const second = await context.newPage();
    await second.goto('/home');
    await second.locator('.topbar-title').waitFor();

    await expect.poll(() => locks(second, 'strata:leader')).toEqual({ held: 1, pending: 1 });
    await first.close();
    await expect.poll(() => locks(second, 'strata:leader')).toEqual({ held: 1, pending: 0 });
    await context.close();
  });

  it('opens the demo engine in one tab only; the other tab is served by it, and takes over when it closes', async () => {
    const { page: first, context } = await newMobilePage(browser());
    const second = await context.newPage();
    // /register asks the demo engine for a captcha, which starts each tab's engine worker.
    for (const page of [first, second]) {
      await page.goto('/register');
      await page.locator('.topbar-title').waitFor();
    }
    await expect
      .poll(() => locks(first, 'strata:engine'), { timeout: 15_000 })
      .toEqual({ held: 1, pending: 1 });
    // The follower's captcha came from the leader's engine.
    await expect.poll(() => second.locator('.captcha img').count(), { timeout: 15_000 }).toBe(1);

    await first.close();
    await expect
      .poll(() => locks(second, 'strata:engine'), { timeout: 15_000 })
      .toEqual({ held: 1, pending: 0 });
    await second.reload();
    await expect.poll(() => second.locator('.captcha img').count(), { timeout: 15_000 }).toBe(1);
    await context.close();
  });
});
