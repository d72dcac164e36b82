import { describe, expect, it } from 'vitest';
import { newMobilePage } from './browser';
import { useBrowser } from './journey';

const browser = useBrowser();

describe('the built app', () => {
  it('serves a page with the Strata title', async () => {
    const { page, context } = await newMobilePage(browser());
    await page.goto('/');
    await expect.poll(() => page.title()).toContain('Strata');
    await context.close();
  });
});
