/**
 * The markets journey in headless Chromium against the production build, in demo mode: the Quotes tab shows
 * the eight pairs and they move with the feed; a quote opens its K-line, which draws and switches interval;
 * a member funded through the simulated chain (confirmed by fast-forwarding the demo clock) buys VIP1,
 * subscribes to a finance product and sees it with its earnings; a limit order is placed, listed as a
 * current delegation and cancelled; a pair is searched and starred (issue 26), the pair sheet picks another by
 * keyboard, and both are axe-clean. Screenshots of every markets screen (light, dark, RTL) go to
 * /tmp/shots/markets-*.png.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  KEY,
  buyVip,
  fastForwardHour,
  newEnglishPage,
  path,
  register,
  screenshots,
  simulateDeposit,
  toast,
  useBrowser,
} from './journey';

/** How long this journey waits for a toast. */
const TOAST_MS = 20_000;

const browser = useBrowser();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious or critical WCAG 2.2 AA violations on the page as it is now (axe-core), by rule and target. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<unknown> } }).axe;
    return (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    })) as { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> };
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${JSON.stringify(v.nodes.slice(0, 2).map((n) => n.target))}`);
}
const shot = screenshots('markets', { fromTop: true });

describe('markets journey (issue 5)', () => {
  it('quotes update live, a K-line switches interval, a finance product is bought, a limit order is cancelled', async () => {
    const { page, context } = await newEnglishPage(browser());
    await register(page, `mk${Date.now() % 1_000_000}`);

    // Quotes: eight pairs, simulated and live.
    await page.goto('/market');
    const rows = page.locator('.quote-list a.quote-row');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(8);
    await page.getByText('Simulated prices: a demo market, not a real exchange.').waitFor();
    const before = await page.locator('.quote-list').textContent();
    await expect.poll(() => page.locator('.quote-list').textContent(), { timeout: 30_000 }).not.toBe(before);
    await page.locator('.feed-live').waitFor();
    await shot(page, 'quotes');
    const falling = page.getByRole('button', { name: 'Falling', exact: true });
    await falling.click();
    await expect.poll(() => falling.getAttribute('aria-pressed')).toBe('true');
    await shot(page, 'quotes-falling');
    const all = page.getByRole('button', { name: 'All', exact: true });
    await all.click();
    await expect.poll(() => all.getAttribute('aria-pressed')).toBe('true');

    // Search and favourite a pair (issue 26 item 3): the star is kept through the outbox, the Favourites view
    // lists it; the open screens are axe-clean.
    await page.getByRole('searchbox', { name: 'Search pairs' }).fill('sol');
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole('button', { name: 'Favourite: SOL/USDT' }).click();
    await page.getByRole('button', { name: 'Favourite: SOL/USDT', pressed: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search pairs' }).fill('');
    await page.getByRole('button', { name: 'Favourites', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole('button', { name: 'Sort by Price' }).click();
    await shot(page, 'quotes-favourites');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(8);

    // K-line from a quote, then another interval.
    await rows.first().click();
    await expect.poll(() => path(page)).toBe('/finance/kline');
    await page.locator('.chart-box canvas').first().waitFor({ timeout: 20_000 });
    await page.getByText(/^Latest candle: open/).waitFor({ timeout: 20_000 });
    await shot(page, 'kline-15m');
    // The URL changes before React commits the navigation (the router renders it in a transition), so
    // the test waits for what the member sees: the 1h button pressed and the chart named for 1h.
    const oneHour = page.getByRole('button', { name: '1h', exact: true });
    await oneHour.click();
    await expect.poll(() => oneHour.getAttribute('aria-pressed'), { timeout: 20_000 }).toBe('true');
    expect(new URL(page.url()).searchParams.get('interval')).toBe('1h');
    await page.getByRole('img', { name: /1h/ }).waitFor({ timeout: 20_000 });
    await page.getByText(/^Latest candle: open/).waitFor({ timeout: 20_000 });
    await shot(page, 'kline-1h');
    // The pair sheet: search, pick by keyboard; the sticky Buy/Sell bar.
    await page.getByRole('button', { name: /^Pair: .+\. Change pair$/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Choose a pair' });
    await sheet.getByRole('combobox', { name: 'Search pairs' }).fill('eth');
    await shot(page, 'pair-sheet');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Pair: ETH/USDT. Change pair' }).waitFor({ timeout: 20_000 });
    await page
      .getByRole('navigation', { name: 'Trade ETH/USDT' })
      .getByRole('link', { name: 'Buy ETH' })
      .waitFor();

    // Money (a simulated TRC-20 payment, confirmed by moving the demo clock an hour on) and VIP1, then a
    // finance subscription.
    await simulateDeposit(page, '1000');
    await fastForwardHour(page);
    await buyVip(page, 1, '50.00', TOAST_MS);

    await page.goto('/financial');
    await page.getByRole('heading', { name: 'USDT Starter 30D' }).waitFor({ timeout: 20_000 });
    await shot(page, 'finance');
    await page.getByRole('link', { name: 'Details of USDT Starter 30D' }).click();
    await page.getByRole('heading', { name: 'Annual rate by VIP level' }).waitFor({ timeout: 20_000 });
    await shot(page, 'product-detail');
    await page.getByRole('link', { name: 'Subscribe' }).click();
    await page.getByLabel('Amount').fill('100');
    await page.getByText(/^Estimated: /).waitFor();
    await shot(page, 'confirm');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const buy = page.getByRole('dialog', { name: 'Subscribe to USDT Starter 30D' });
    await buy.getByLabel('Security key').fill(KEY);
    await buy.getByRole('button', { name: 'Pay 100.00 USDT' }).click();
    await toast(page, 'Subscribed 100.00 USDT to USDT Starter 30D', TOAST_MS);
    await expect.poll(() => path(page)).toBe('/finance/order');
    await page.locator('.record').filter({ hasText: 'USDT Starter 30D' }).waitFor({ timeout: 20_000 });
    await shot(page, 'orders');

    // A resting limit order, then its cancellation.
    await page.goto('/contract');
    const form = page.getByRole('form', { name: 'Spot order' });
    await form.waitFor({ timeout: 20_000 });
    await page.getByText('Available: 850.00 USDT').waitFor({ timeout: 20_000 });
    await form.getByLabel('Price').fill('1000');
    await form.getByLabel('Quantity (BTC)').fill('0.01');
    await form.locator('button[type="submit"]').click();
    await toast(page, 'Limit order placed', TOAST_MS);
    const open = page.getByRole('list', { name: 'Current delegations' });
    await open.locator('.record').first().waitFor({ timeout: 20_000 });
    await shot(page, 'trade-spot');
    await open.getByRole('button', { name: 'Cancel BTC/USDT order' }).click();
    await toast(page, 'Order cancelled', TOAST_MS);
    await page.getByText('No open orders.').waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'Contract' }).click();
    await page.getByRole('form', { name: 'Contract order' }).waitFor();
    await shot(page, 'trade-contract');

    // Issue 26 item 2: a 20x long through its confirmation sheet with a take-profit and a stop-loss, then
    // half of it closed from its card. Contract money first, moved from cash.
    await page.goto('/user/move');
    await page.getByRole('heading', { name: 'Move between your accounts' }).waitFor({ timeout: 20_000 });
    await page.getByLabel('To').selectOption('contract');
    await page.getByLabel('Amount (USDT)').fill('300');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await toast(page, 'Moved 300.00 USDT from Cash to Contracts', TOAST_MS);
    await page.goto('/contract');
    await page.getByRole('tab', { name: 'Contract' }).click();
    const contract = page.getByRole('form', { name: 'Contract order' });
    await contract.getByText('Available: 300.00 USDT').waitFor({ timeout: 20_000 });
    await contract.getByLabel('Leverage').selectOption('20');
    await contract.getByLabel('Quantity (BTC)').fill('0.01');
    await contract.getByRole('checkbox', { name: 'Take-profit / stop-loss' }).check();
    // The mark beside the last price in the header: the take-profit 50% above it, the stop-loss 50% below.
    const markText = await page.locator('.funding-ticker data').first().getAttribute('value');
    const mark = Number(markText);
    expect(mark).toBeGreaterThan(0);
    await contract.getByLabel('Take-profit (mark price)').fill((mark * 1.5).toFixed(2));
    await contract.getByLabel('Stop-loss (mark price)').fill((mark * 0.5).toFixed(2));
    await contract.getByRole('button', { name: 'Open long' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm: Long BTC/USDT' });
    await confirm.getByText('20x · Cross').waitFor();
    await confirm.getByText('Next funding').waitFor();
    await shot(page, 'trade-confirm');
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Open long' }).click();
    await toast(page, 'Long position opened', TOAST_MS);
    await page.getByRole('tab', { name: 'Positions' }).click();
    const card = page.getByRole('listitem', { name: 'BTC/USDT Long' });
    await card.getByText('ROE').waitFor({ timeout: 20_000 });
    await shot(page, 'trade-position');
    expect(await axeViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Close', exact: true }).click();
    const closing = page.getByRole('dialog', { name: 'Close Long BTC/USDT' });
    await closing.getByRole('button', { name: 'Close 50% of the position' }).click();
    await closing.getByRole('button', { name: 'Close at market' }).click();
    await toast(page, 'Closed 0.0050 BTC; the rest stays open', TOAST_MS);
    await card
      .locator('dd', { hasText: /^0\.0050$/ })
      .first()
      .waitFor({ timeout: 20_000 });

    // The trade screen, its confirmation sheet and the position card at 360 px in four languages.
    await page.setViewportSize({ width: 360, height: 800 });
    for (const lang of ['en-US', 'de-DE', 'ar-SA', 'zh-CN']) {
      await page.evaluate((l) => localStorage.setItem('strata.lang', l), lang);
      await page.goto('/contract');
      await page.locator('#tab-contract').click();
      const form = page.locator('form.trade-form');
      await form.locator('input[name="amount"]').fill('0.01');
      await form.locator('.order-preview').waitFor({ timeout: 20_000 });
      await shot(page, `trade-360-${lang}`);
      await form.locator('button[type="submit"]').click();
      await page.getByRole('dialog').waitFor();
      await shot(page, `trade-confirm-360-${lang}`);
      await page.keyboard.press('Escape');
      await page.locator('section.card .tabs-row [role="tab"]').nth(1).click();
      await page.locator('.record-list .record').first().waitFor({ timeout: 20_000 });
      await page.locator('.record-list').scrollIntoViewIfNeeded();
      await shot(page, `trade-position-360-${lang}`);
    }
    await page.evaluate(() => localStorage.setItem('strata.lang', 'en-US'));
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/contract');
    await page.getByRole('form', { name: 'Spot order' }).waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'Up/Down' }).click();
    await shot(page, 'trade-option');

    for (const [route, name, text] of [
      ['/finance/machine', 'mining', 'Hash Pool S7'],
      ['/finance/livecoin', 'livecoin', 'Live coin prices'],
      ['/home', 'home', 'BTC'],
    ] as const) {
      await page.goto(route);
      await page.getByText(text).first().waitFor({ timeout: 20_000 });
      await shot(page, name);
    }

    // Dark theme, then right to left (ar-SA).
    // Each screen with what shows it has its data (the quotes, the drawn chart), so the shot is not the
    // loading state.
    const tour = [
      ['/market', 'quotes', '.quote-list a.quote-row'],
      ['/finance/kline?symbol=ETH%2FUSDT', 'kline', '.chart-card canvas'],
      ['/contract', 'trade', '.page'],
      ['/financial', 'finance', '.page'],
      ['/finance/order', 'orders', '.page'],
    ] as const;
    await page.evaluate(() => localStorage.setItem('strata.theme', 'dark'));
    for (const [route, name, ready] of tour) {
      await page.goto(route);
      await page.locator('html[data-theme="dark"]').waitFor();
      await page.locator(ready).first().waitFor();
      await shot(page, `dark-${name}`);
    }
    await page.evaluate(() => {
      localStorage.setItem('strata.theme', 'light');
      localStorage.setItem('strata.lang', 'ar-SA');
    });
    for (const [route, name, ready] of tour) {
      await page.goto(route);
      await expect.poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
      await page.locator(ready).first().waitFor();
      await shot(page, `rtl-${name}`);
    }
    await context.close();
  }, 300_000);
});
