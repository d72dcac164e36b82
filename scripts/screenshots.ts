/**
 * Screenshots of the phone screens whose figures and labels are checked by eye (trade, a finance product,
 * /user, the K-line) at 360 px (the trade screen also at 412 px) in en-US, de-DE, ar-SA and zh-CN, light and
 * dark, from the built app (`npm run build` first) served by `vite preview`, for a demo member it registers.
 * `npx tsx scripts/screenshots.ts [screen...]` writes `<SHOTS_DIR>/<screen>-<lang>-<theme>.png` (default
 * /tmp/shots26). Not part of `npm test`. README.md "Set up".
 */
import { mkdirSync } from 'node:fs';
import { preview } from 'vite';
import type { Page } from 'playwright-core';
import {
  animationsDone,
  buyVip,
  fastForwardHour,
  fillRegister,
  launchBrowser,
  simulateDeposit,
  toast,
} from '../tests/e2e/steps';

const OUT = process.env.SHOTS_DIR ?? '/tmp/shots26';
const LANGS = ['en-US', 'de-DE', 'ar-SA', 'zh-CN'] as const;
const THEMES = ['light', 'dark'] as const;
const WAIT = 30_000;

/** Where the setup left the finance product's pages (their addresses carry the product's id). */
interface Places {
  productDetail: string;
  productConfirm: string;
}

/** One screen: opens it on `page` in the stored language and theme and waits until it shows its data. */
interface Screen {
  name: string;
  widths: readonly number[];
  /** Opens the screen; answers when what the shot shows is there. */
  open(page: Page, places: Places): Promise<void>;
}

/** The trade form of the open trade screen (spot or contract), whichever language it speaks. */
const tradeForm = (page: Page) => page.locator('form.trade-form');

async function openContract(page: Page): Promise<void> {
  await page.goto('/contract?symbol=BTC%2FUSDT');
  await page.locator('#tab-contract').click();
  await tradeForm(page).locator('input[name="amount"]').fill('0.01');
  await tradeForm(page).locator('.order-preview dd').first().waitFor({ timeout: WAIT });
}

const SCREENS: readonly Screen[] = [
  {
    name: 'trade-spot',
    widths: [360, 412],
    async open(page) {
      await page.goto('/contract?symbol=BTC%2FUSDT');
      const form = tradeForm(page);
      // The second choice of the second group: a market order, which shows the preview.
      await form.locator('.segmented').nth(1).locator('button').nth(1).click();
      await form.locator('input[name="amount"]').fill('0.01');
      await form.locator('.order-preview dd').first().waitFor({ timeout: WAIT });
    },
  },
  { name: 'trade-contract', widths: [360, 412], open: openContract },
  {
    name: 'trade-confirm',
    widths: [360],
    async open(page) {
      await openContract(page);
      await tradeForm(page).locator('button[type="submit"]').click();
      await page.getByRole('dialog').locator('dd').first().waitFor({ timeout: WAIT });
    },
  },
  {
    name: 'trade-position',
    widths: [360],
    async open(page) {
      await page.goto('/contract?symbol=BTC%2FUSDT');
      await page.locator('#tab-contract').click();
      await page.locator('section.card .tabs-row [role="tab"]').nth(1).click();
      await page.locator('.record-list .record').first().waitFor({ timeout: WAIT });
      await page.locator('.record-list').scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'product-detail',
    widths: [360],
    async open(page, places) {
      await page.goto(places.productDetail);
      await page.locator('.page .card dd').first().waitFor({ timeout: WAIT });
    },
  },
  {
    name: 'product-subscribe',
    widths: [360],
    async open(page, places) {
      await page.goto(places.productConfirm);
      await page.locator('input[name="amount"]').fill('100');
      await page.locator('.estimate p:not(.muted)').waitFor({ timeout: WAIT });
    },
  },
  {
    name: 'product-subscribe-sheet',
    widths: [360],
    async open(page, places) {
      await page.goto(places.productConfirm);
      await page.locator('input[name="amount"]').fill('100');
      await page.locator('form button[type="submit"]').click();
      await page.getByRole('dialog').locator('dd').first().waitFor({ timeout: WAIT });
    },
  },
  {
    name: 'user',
    widths: [360],
    async open(page) {
      await page.goto('/user');
      await page.locator('.hero-amount data').waitFor({ timeout: WAIT });
      await page.locator('.account-value data').first().waitFor({ timeout: WAIT });
    },
  },
  {
    name: 'kline',
    widths: [360],
    async open(page) {
      await page.goto('/finance/kline?symbol=BTC%2FUSDT');
      await page.locator('.chart-box canvas').first().waitFor({ timeout: WAIT });
      await page.locator('.chart-card p.terms[aria-live="off"]').waitFor({ timeout: WAIT });
    },
  },
];

/** The page's address within the app (path and query: a product's pages carry its id in the query). */
const where = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** The demo member the screens show: cash, VIP1, a contract balance and an open 20x long. */
async function setUp(page: Page): Promise<Places> {
  await page.goto('/register');
  await fillRegister(page, `shot${Date.now() % 1_000_000}`);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL((url) => url.pathname !== '/register', { timeout: WAIT });
  await simulateDeposit(page, '1000');
  await fastForwardHour(page);
  await buyVip(page, 1, '50.00', WAIT);

  await page.goto('/financial');
  await page
    .getByRole('link', { name: /^Details of / })
    .first()
    .click();
  await page.getByRole('link', { name: 'Subscribe' }).waitFor({ timeout: WAIT });
  const productDetail = where(page);
  await page.getByRole('link', { name: 'Subscribe' }).click();
  await page.locator('input[name="amount"]').waitFor({ timeout: WAIT });
  const productConfirm = where(page);

  await page.goto('/user/move');
  await page.getByLabel('To').selectOption('contract');
  await page.getByLabel('Amount (USDT)').fill('300');
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  await toast(page, 'Moved 300.00 USDT from Cash to Contracts', WAIT);

  await page.goto('/contract');
  await page.getByRole('tab', { name: 'Contract' }).click();
  const contract = page.getByRole('form', { name: 'Contract order' });
  await contract.getByText('Available: 300.00 USDT').waitFor({ timeout: WAIT });
  await contract.getByLabel('Leverage').selectOption('20');
  await contract.getByLabel('Quantity (BTC)').fill('0.01');
  await contract.getByRole('button', { name: 'Open long' }).click();
  await page
    .getByRole('dialog', { name: 'Confirm: Long BTC/USDT' })
    .getByRole('button', { name: 'Open long' })
    .click();
  await toast(page, 'Long position opened', WAIT);
  return { productDetail, productConfirm };
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !SCREENS.some((s) => s.name === w));
  if (unknown.length)
    throw new Error(`unknown screens ${unknown.join(', ')}; known: ${SCREENS.map((s) => s.name).join(', ')}`);
  const screens = wanted.length ? SCREENS.filter((s) => wanted.includes(s.name)) : SCREENS;
  mkdirSync(OUT, { recursive: true });

  const server = await preview({
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
    logLevel: 'warn',
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width: 360, height: 800 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
      baseURL: `http://127.0.0.1:${address.port}`,
    });
    await context.addInitScript(() => {
      if (!localStorage.getItem('strata.lang')) localStorage.setItem('strata.lang', 'en-US');
    });
    const page = await context.newPage();
    const places = await setUp(page);
    for (const theme of THEMES)
      for (const lang of LANGS) {
        await page.evaluate(
          ([l, th]) => {
            localStorage.setItem('strata.lang', l);
            localStorage.setItem('strata.theme', th);
          },
          [lang, theme] as const,
        );
        for (const screen of screens)
          for (const width of screen.widths) {
            await page.setViewportSize({ width, height: 800 });
            await screen.open(page, places);
            await page.locator(`html[data-theme="${theme}"][lang="${lang}"]`).waitFor({ timeout: WAIT });
            // A full-page shot of a page taller than the viewport draws the fixed bars (top bar, tab bar) where
            // the viewport ends, over the content: the viewport is made as tall as the page instead, so they
            // sit at its top and bottom. The caret would blink in the shot.
            await page.evaluate(() => {
              if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
              window.scrollTo(0, 0);
            });
            const height = await page.evaluate(() => document.documentElement.scrollHeight);
            await page.setViewportSize({ width, height: Math.max(800, height) });
            await animationsDone(page);
            const suffix = width === 360 ? '' : `-${width}`;
            const file = `${OUT}/${screen.name}${suffix}-${lang}-${theme}.png`;
            await page.screenshot({ path: file, fullPage: true });
            console.log(file);
          }
      }
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
