// @vitest-environment node
/**
 * The top bar at 360 px (issue 26: "Confirm subscri…", "Prod…" in de-DE): every screen's title, beside the
 * back button, the member's sync chip and the demo badge, is shown whole in en-US, de-DE, ar-SA and zh-CN,
 * on one line or two, never cut. Measured in headless Chromium with the app's own stylesheets.
 */
import { describe, expect, it } from 'vitest';
import {
  appStyles,
  escapeHtml as escape,
  LAYOUT_LOCALES,
  layoutPage,
  phoneBrowser,
  stringsOf,
} from '../../tests/app/layout-kit';

const STYLES = appStyles('src/sync/sync.css');
type Strings = Record<string, Record<string, unknown>>;

/** One top bar per screen title, as AppShell draws it for a signed-in member on a screen with a back button. */
function page(locale: string): string {
  const strings = stringsOf<Strings>(locale);
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
  return layoutPage(locale, STYLES, bars);
}

const chromium = phoneBrowser();

describe('the top bar shows every screen title whole at 360 px', () => {
  it.each(LAYOUT_LOCALES)('%s', async (locale) => {
    const titles = await chromium.open(locale, page(locale), (tab) =>
      tab.$$eval('.topbar', (bars) =>
        bars.map((bar) => {
          const title = bar.querySelector('.topbar-title')!;
          const end = bar.querySelector('.topbar-end')!.getBoundingClientRect();
          const box = title.getBoundingClientRect();
          return {
            text: title.textContent ?? '',
            cut: title.scrollWidth > title.clientWidth + 1 || title.scrollHeight > title.clientHeight + 1,
            lines: Math.round(box.height / Number.parseFloat(getComputedStyle(title).lineHeight)),
            overlaps:
              document.documentElement.dir === 'rtl'
                ? box.left < end.right - 0.5
                : box.right > end.left + 0.5,
          };
        }),
      ),
    );
    expect(titles.length).toBeGreaterThan(40);
    for (const t of titles) {
      expect(t.cut, `"${t.text}" whole`).toBe(false);
      expect(t.lines, `"${t.text}" on one or two lines`).toBeLessThanOrEqual(2);
      expect(t.overlaps, `"${t.text}" clear of the chip and badge`).toBe(false);
    }
  });
});
