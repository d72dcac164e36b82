/**
 * The accessibility audit (issue 15, item 8) in headless Chromium against the production build: axe-core
 * (WCAG 2.0/2.1/2.2 A and AA rules) on every screen of src/app/paths.ts, in light, dark and ar-SA (right to
 * left), logged out where the guard shows the screen only then (/login) and logged in for the rest. Any
 * serious or critical violation fails, listed by screen, variant, rule and element.
 *
 * One browser context: the member registers once; each variant stores its theme and language, loads the
 * app once and moves through every screen as a member does, by in-app navigation (no reload per screen).
 * The dark variant runs the colour rules only (the theme changes nothing else). Before axe runs, the
 * screen has settled on what a member sees: its own title is shown, no query is loading and the page's
 * finite animations are done.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENS } from '../../src/app/paths';
import { animationsDone, newEnglishPage, register, useBrowser } from './journey';

const browser = useBrowser();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const WCAG = { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] };
const COLOURS = { type: 'rule', values: ['color-contrast', 'link-in-text-block'] };

const VARIANTS = [
  { name: 'light', theme: 'light', lang: 'en-US', rules: WCAG },
  { name: 'dark', theme: 'dark', lang: 'en-US', rules: COLOURS },
  { name: 'ar-SA', theme: 'light', lang: 'ar-SA', rules: WCAG },
] as const;

interface Finding {
  screen: string;
  variant: string;
  rule: string;
  impact: string;
  targets: string[];
  summary: string;
}

interface AxeResult {
  violations: Array<{
    id: string;
    impact: string | null;
    nodes: Array<{ target: unknown[]; failureSummary?: string }>;
  }>;
}

/**
 * Waits for the screen the member sees: its title in the top bar, no loading state, animations done. The
 * top bar must be React's, not index.html's build-time shell or a kept last screen (src/lib/snapshot.ts):
 * those look the same and show no loading state, but until React commits there is no router to answer an
 * in-app navigation (a member's tap on a shell link loads the page instead).
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const title = document.querySelector('.topbar-title');
      return title !== null && Object.keys(title).some((key) => key.startsWith('__reactFiber$'));
    },
    undefined,
    { timeout: 30_000 },
  );
  await page.waitForFunction(
    () => document.querySelectorAll('.state[role="status"], .spinner').length === 0,
    {
      timeout: 30_000,
    },
  );
  await animationsDone(page);
}

/** In-app navigation, as a link does it; resolves once the new screen's own title is in place. */
async function navigate(page: Page, screen: string): Promise<void> {
  const before = await page.title();
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, screen);
  await page
    .waitForFunction((title) => document.title !== title, before, { timeout: 30_000 })
    .catch((error: unknown) => {
      throw new Error(`${screen}: the title stayed "${before}"`, { cause: error });
    });
}

async function audit(
  page: Page,
  screen: string,
  variant: (typeof VARIANTS)[number],
  first: boolean,
): Promise<Finding[]> {
  if (first) await page.goto(screen);
  else await navigate(page, screen);
  await settled(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async (runOnly) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, options: unknown): Promise<unknown> } })
      .axe;
    return (await axe.run(document, { runOnly, resultTypes: ['violations'] })) as unknown;
  }, variant.rules);
  return (result as AxeResult).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      screen,
      variant: variant.name,
      rule: v.id,
      impact: v.impact ?? '',
      targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)),
      summary: (v.nodes[0]?.failureSummary ?? '').split('\n').slice(0, 2).join(' '),
    }));
}

describe('accessibility audit (axe-core, WCAG 2.2 AA)', () => {
  it('every screen in light, dark and ar-SA has no serious or critical violation', async () => {
    const { page, context } = await newEnglishPage(browser());
    const findings: Finding[] = [];
    const visit = async (variant: (typeof VARIANTS)[number], screens: readonly string[]) => {
      await page.evaluate(
        ([theme, lang]) => {
          localStorage.setItem('strata.theme', theme);
          localStorage.setItem('strata.lang', lang);
        },
        [variant.theme, variant.lang] as const,
      );
      for (const [i, screen] of screens.entries())
        findings.push(...(await audit(page, screen, variant, i === 0)));
    };

    // Logged out: the screen the guard shows only then.
    await page.goto('/login');
    for (const variant of VARIANTS) await visit(variant, ['/login']);

    // Logged in: every other screen.
    await page.evaluate(() => localStorage.setItem('strata.lang', 'en-US'));
    await register(page, `ax${Date.now() % 1_000_000}`);
    const screens = SCREENS.map((s) => s.path).filter((p) => p !== '/login');
    for (const variant of VARIANTS) await visit(variant, screens);

    await context.close();
    expect(findings, JSON.stringify(findings, null, 1)).toEqual([]);
  }, 600_000);
});
