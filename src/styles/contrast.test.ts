/**
 * WCAG contrast of the colour pairs global.css uses for text, in both themes: >= 4.5:1 for text, >= 3:1
 * for the focus ring and icons on their tiles (non-text). Reads the stylesheets themselves (base.css, which
 * global.css imports first, then global.css), so a colour change that breaks contrast fails here.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

// Vitest runs from the repository root; jsdom's import.meta.url is not a file URL.
const css = ['src/styles/base.css', 'src/styles/global.css'].map((f) => readFileSync(f, 'utf8')).join('\n');

/** The colour tokens of every block with exactly this selector, in order (a later one wins). */
function themeVars(selector: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (let start = css.indexOf(selector); start >= 0; start = css.indexOf(selector, start + 1)) {
    const block = css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start));
    for (const m of block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)) vars.set(m[1] ?? '', m[2] ?? '');
  }
  return vars;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

const TEXT_PAIRS: [string, string][] = [
  ['text', 'bg'],
  ['text', 'surface'],
  ['text', 'surface-2'],
  ['text', 'primary-soft'],
  ['muted', 'bg'],
  ['muted', 'surface'],
  ['primary', 'surface'],
  ['primary', 'bg'],
  ['primary', 'primary-soft'],
  ['on-primary', 'primary'],
  ['demo-text', 'demo-bg'],
  ['toast-text', 'error-bg'],
  ['toast-text', 'success-bg'],
  ['bg', 'text'],
];

describe.each([":root,\n[data-theme='light']", "[data-theme='dark']"])('contrast in %s', (selector) => {
  const vars = themeVars(selector);
  it.each(TEXT_PAIRS)('%s on %s is at least 4.5:1', (fg, bg) => {
    const a = vars.get(fg);
    const b = vars.get(bg);
    expect(a && b, `${fg} and ${bg} defined`).toBeTruthy();
    expect(contrast(a ?? '', b ?? '')).toBeGreaterThanOrEqual(4.5);
  });
  it('the focus ring stands out from the surface (3:1)', () => {
    expect(contrast(vars.get('focus') ?? '', vars.get('surface') ?? '')).toBeGreaterThanOrEqual(3);
  });
});
