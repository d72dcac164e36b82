/**
 * Draws Strata's icon (three stacked layers: the strata of the name) as SVG and rasterises it with Debian's
 * headless Chromium, so the PNGs in public/ come from one source without an image library.
 * Run after changing the design: `npx tsx scripts/make-icons.ts`; the outputs are committed.
 */
import { chromium } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The dark theme's page colour (index.html theme-color and the manifest use it too). */
const BACKGROUND = '#0b1220';

/** The layers on a 512 grid, centred on (256, 256). */
const LAYERS = `
  <polygon points="256,100 412,178 256,256 100,178" fill="#5eead4" stroke="#5eead4" stroke-width="16" stroke-linejoin="round"/>
  <polyline points="100,252 256,330 412,252" fill="none" stroke="#2dd4bf" stroke-width="36" stroke-linecap="round" stroke-linejoin="round"/>
  <polyline points="100,326 256,404 412,326" fill="none" stroke="#0f9488" stroke-width="36" stroke-linecap="round" stroke-linejoin="round"/>`;

/**
 * `rounded`: the "any" icon, a rounded tile with transparent corners. Otherwise a full-bleed square, as
 * maskable icons (the platform cuts the shape) and apple-touch-icon (iOS rounds it itself) need; `scale`
 * keeps the drawing inside the maskable safe zone (a circle of 40% of the size).
 */
function svg(options: { rounded: boolean; scale: number }): string {
  const { rounded, scale } = options;
  const offset = 256 * (1 - scale);
  const radius = rounded ? 112 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="${radius}" fill="${BACKGROUND}"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">${LAYERS}
  </g>
</svg>
`;
}

const outputs = [
  { file: 'pwa-192x192.png', size: 192, rounded: true, scale: 0.92 },
  { file: 'pwa-512x512.png', size: 512, rounded: true, scale: 0.92 },
  { file: 'maskable-icon-512x512.png', size: 512, rounded: false, scale: 0.72 },
  { file: 'apple-touch-icon-180x180.png', size: 180, rounded: false, scale: 0.8 },
];

const publicDir = join(import.meta.dirname, '..', 'public');
writeFileSync(join(publicDir, 'favicon.svg'), svg({ rounded: true, scale: 0.92 }));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  for (const out of outputs) {
    await page.setViewportSize({ width: out.size, height: out.size });
    const markup = svg(out).replace('<svg ', `<svg width="${out.size}" height="${out.size}" `);
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block}</style>${markup}`,
    );
    await page.screenshot({ path: join(publicDir, out.file), omitBackground: true });
    console.log(`icons: ${out.file} ${out.size}x${out.size}`);
  }
} finally {
  await browser.close();
}
