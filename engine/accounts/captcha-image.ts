/**
 * The captcha picture (issue 11 item 7): the digits are drawn as pen strokes, never as text, so a script cannot
 * read the code from the markup. Each digit is a hand-drawn skeleton, scaled, rotated, shifted and wobbled
 * point by point, cut into two strokes at a random place; decoy strokes of the same pen cross them; and all
 * strokes are shuffled, so neither the order nor the number of paths says which digit is where. The
 * randomness comes from secret bytes (ctx.entropy), not the seeded simulation random, so the distortion of
 * one picture cannot be recomputed from public values.
 */

type Point = readonly [number, number];

/** Digit skeletons in a 10 x 16 box (x right, y down). */
const GLYPHS: Record<string, readonly Point[]> = {
  '0': [
    [5, 0],
    [8.5, 2],
    [10, 8],
    [8.5, 14],
    [5, 16],
    [1.5, 14],
    [0, 8],
    [1.5, 2],
    [5, 0],
  ],
  '1': [
    [2, 3.5],
    [5.5, 0],
    [5.5, 16],
  ],
  '2': [
    [0.5, 3.5],
    [4, 0],
    [8, 0.8],
    [9.5, 4],
    [8, 7.5],
    [0, 16],
    [10, 16],
  ],
  '3': [
    [0.5, 1.5],
    [5, 0],
    [9, 2],
    [9, 6],
    [5, 8],
    [9.5, 10.5],
    [9, 14],
    [5, 16],
    [0.5, 14.5],
  ],
  '4': [
    [7.5, 16],
    [7.5, 0],
    [0, 11],
    [10, 11],
  ],
  '5': [
    [9, 0],
    [1.5, 0],
    [0.5, 7],
    [5, 6],
    [9.5, 8.5],
    [9, 13.5],
    [5, 16],
    [0, 14.5],
  ],
  '6': [
    [8.5, 1],
    [4.5, 0],
    [1, 4],
    [0, 10],
    [2, 15],
    [6, 16],
    [9.5, 13],
    [9, 9.5],
    [5.5, 8],
    [1.5, 9],
    [0, 11.5],
  ],
  '7': [
    [0, 0],
    [10, 0],
    [6, 7],
    [3.5, 16],
  ],
  '8': [
    [5, 8],
    [1.5, 5.5],
    [1.5, 1.5],
    [5, 0],
    [8.5, 1.5],
    [8.5, 5.5],
    [5, 8],
    [0.5, 11],
    [1, 14.5],
    [5, 16],
    [9, 14.5],
    [9.5, 11],
    [5, 8],
  ],
  '9': [
    [9.5, 6],
    [7, 8.5],
    [3, 8.5],
    [0, 5.5],
    [1, 1],
    [5, 0],
    [9, 2],
    [10, 7],
    [8.5, 13],
    [4.5, 16],
    [1, 15],
  ],
};

export const CAPTCHA_WIDTH = 120;
export const CAPTCHA_HEIGHT = 44;

/** Uniform draws in [0, 1) from a byte source, two bytes each. */
function draws(bytes: Uint8Array): () => number {
  let i = 0;
  return () => {
    const hi = bytes[i % bytes.length] ?? 0;
    const lo = bytes[(i + 1) % bytes.length] ?? 0;
    i += 2;
    return (hi * 256 + lo) / 65_536;
  };
}

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();

function pathOf(points: readonly Point[]): string {
  return points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${fmt(x)} ${fmt(y)}`).join('');
}

/** How many secret bytes one picture of `digits` digits consumes. */
export function captchaEntropyBytes(digits: number): number {
  return 2 * (digits * 64 + 64);
}

/**
 * The picture of `code` (digits only) as an SVG document. `bytes` must be secret and fresh for each picture
 * (captchaEntropyBytes(code.length) of them).
 */
export function captchaSvg(code: string, bytes: Uint8Array): string {
  const r = draws(bytes);
  const between = (lo: number, hi: number) => lo + (hi - lo) * r();
  const strokes: Point[][] = [];
  const cell = (CAPTCHA_WIDTH - 16) / Math.max(code.length, 1);
  [...code].forEach((digit, i) => {
    const glyph = GLYPHS[digit];
    if (!glyph) throw new Error('captcha codes are digits');
    const scale = between(1.55, 1.95);
    const angle = (between(-18, 18) * Math.PI) / 180;
    const [cx, cy] = [8 + cell * (i + 0.5) + between(-3, 3), CAPTCHA_HEIGHT / 2 + between(-3, 3)];
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const points = glyph.map(([x, y]): Point => {
      const [dx, dy] = [(x - 5 + between(-0.7, 0.7)) * scale, (y - 8 + between(-0.7, 0.7)) * scale];
      return [cx + dx * cos - dy * sin, cy + dx * sin + dy * cos];
    });
    // Cut into two strokes (sharing the cut point) so a digit is not one path with a recognisable length.
    const cut = 1 + Math.floor(r() * (points.length - 2));
    strokes.push(points.slice(0, cut + 1), points.slice(cut));
  });
  // Decoys: wavy strokes of the same pen across the picture.
  const decoys = 2 + Math.floor(r() * 2);
  for (let d = 0; d < decoys; d++) {
    const y0 = between(4, CAPTCHA_HEIGHT - 4);
    const points: Point[] = [];
    const x0 = between(0, CAPTCHA_WIDTH / 3);
    const x1 = between((2 * CAPTCHA_WIDTH) / 3, CAPTCHA_WIDTH);
    const amp = between(1.5, 5);
    const phase = between(0, Math.PI * 2);
    for (let k = 0; k <= 8; k++) {
      const x = x0 + ((x1 - x0) * k) / 8;
      points.push([x, y0 + amp * Math.sin(phase + k * 0.9) + between(-1, 1)]);
    }
    strokes.push(points);
  }
  // Shuffle (Fisher-Yates) so the path order does not follow the digits.
  for (let i = strokes.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [strokes[i], strokes[j]] = [strokes[j] as Point[], strokes[i] as Point[]];
  }
  const paths = strokes.map((s) => `<path d="${pathOf(s)}"/>`).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}" ` +
    `viewBox="0 0 ${CAPTCHA_WIDTH} ${CAPTCHA_HEIGHT}" role="img" aria-label="captcha">` +
    `<rect width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}" fill="#eef1f5"/>` +
    `<g fill="none" stroke="#23324a" stroke-width="2.3" stroke-linecap="round" stroke-linejoin="round">${paths}</g></svg>`
  );
}
