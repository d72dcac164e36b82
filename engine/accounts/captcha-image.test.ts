import { describe, expect, it } from 'vitest';
import { captchaEntropyBytes, captchaSvg } from './captcha-image';

const bytes = (seed: number) =>
  Uint8Array.from(
    { length: captchaEntropyBytes(4) },
    (_, i) => (i * 131 + seed * 197 + ((i * seed) % 7)) & 255,
  );

describe('the captcha picture (issue 11 item 7)', () => {
  it('draws the digits as strokes: no text, no font, nothing a script could read as the code', () => {
    const svg = captchaSvg('4071', bytes(1));
    expect(svg).not.toMatch(/<text|font|<tspan|<title|<desc/);
    // Only a background and paths: every element is one of those.
    const elements = [...svg.matchAll(/<(\w+)/g)].map((m) => m[1]);
    expect(new Set(elements)).toEqual(new Set(['svg', 'rect', 'g', 'path']));
    // Two strokes per digit plus two or three decoys of the same pen.
    const paths = elements.filter((e) => e === 'path').length;
    expect(paths).toBeGreaterThanOrEqual(10);
    expect(paths).toBeLessThanOrEqual(11);
    // The pen is set once for all strokes: no attribute tells a digit's stroke from a decoy.
    expect([...svg.matchAll(/<path d="[^"]+"\/>/g)]).toHaveLength(paths);
  });

  it('the same code looks different each time (fresh secret bytes), and the same bytes give the same picture', () => {
    expect(captchaSvg('1234', bytes(1))).not.toBe(captchaSvg('1234', bytes(2)));
    expect(captchaSvg('1234', bytes(3))).toBe(captchaSvg('1234', bytes(3)));
  });

  it('keeps every stroke inside the picture', () => {
    for (let seed = 0; seed < 50; seed++) {
      const svg = captchaSvg('8888', bytes(seed));
      for (const [, x, y] of svg.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)) {
        expect(Number(x)).toBeGreaterThanOrEqual(-2);
        expect(Number(x)).toBeLessThanOrEqual(122);
        expect(Number(y)).toBeGreaterThanOrEqual(-2);
        expect(Number(y)).toBeLessThanOrEqual(46);
      }
    }
  });

  it('refuses anything but digits', () => {
    expect(() => captchaSvg('12a4', bytes(1))).toThrow(/digits/);
  });
});
