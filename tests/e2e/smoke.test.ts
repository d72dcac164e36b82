import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newMobilePage } from './browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('the built app', () => {
  it('serves a page with the Strata title', async () => {
    const { page, context } = await newMobilePage(browser);
    await page.goto('/');
    await expect.poll(() => page.title()).toContain('Strata');
    await context.close();
  });
});
