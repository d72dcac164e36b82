/**
 * Live mode's first data in the HTML (docs/PWA.md "Live mode: first data in the HTML", server/http/app-page.ts):
 * a navigation's page carries /api/market/list's answer with the server's time, escaped against `</script>`,
 * revalidated on every use (no-cache + ETag), in every encoding the client accepts; /index.html (what the
 * service worker precaches) stays as built.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../../engine/index';
import { appPage, brotliTail, encodingFor, encodingsFor, scriptJson } from '../../../server/http/app-page';
import { serveBuild } from '../../../server/http/static-app';
import { venueSource } from '../markets/venue-source';
import { startTestServer, T0, type TestServer } from './serve';

const HOSTILE = '</script><script>alert(1)</script><!--';
const INLINE_SCRIPT = 'document.documentElement.dataset.x="1"';
const PAGE = `<!doctype html><html><head><title>Strata</title></head><body><div id="root">shell</div><script>${INLINE_SCRIPT}</script><script type="module" src="/assets/app-1.js"></script></body></html>`;
const FIRST_DATA = /<script type="application\/json" id="strata-first-data">([^<]*)<\/script>/;

interface Inlined {
  time: number;
  answers: { '/api/market/list': { list: Quote[] } };
}

function inlined(html: string): Inlined {
  const json = FIRST_DATA.exec(html)?.[1];
  if (json === undefined) throw new Error('no first data in the page');
  return JSON.parse(json) as Inlined;
}

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-page-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), PAGE);
  await writeFile(join(dir, 'assets', 'app-1.js'), 'console.log(1)');
  const market = venueSource(1);
  // A venue whose pair name tries to end the script element and start one of its own.
  const quotes = (now: number): Quote[] => {
    const list = market.quotes(now);
    const first = list[0];
    return first ? [...list, { ...first, symbol: HOSTILE, base: '<b>&amp;' }] : list;
  };
  server = await startTestServer({ market: { ...market, quotes }, config: { staticDir: dir } });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const navigate = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${url}`, { headers: { Accept: 'text/html', ...headers } });

describe('the app page carries the first data (live mode)', () => {
  it('/home, /market and / carry /api/market/list with the server time, as the call answers it', async () => {
    const listed = await server.call('/api/market/list');
    expect(listed.code).toBe(0);
    for (const route of ['/home', '/market', '/']) {
      const response = await navigate(route);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      const data = inlined(html);
      expect(data.time).toBe(Math.floor(T0 / 1000));
      expect(data.answers['/api/market/list']).toEqual(listed.data);
      expect(data.answers['/api/market/list'].list.length).toBeGreaterThan(8);
      // The page is the build's, with the element before </body>.
      expect(html.replace(FIRST_DATA, '')).toBe(PAGE);
    }
  });

  it('a hostile pair name cannot end the element: < > & are \\u escapes and parse back as they were', async () => {
    const html = await (await navigate('/home')).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<!--');
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    const json = FIRST_DATA.exec(html)?.[1] ?? '';
    expect(json).toContain('\\u003c/script\\u003e');
    expect(json).not.toMatch(/[<>&]/);
    const last = inlined(html).answers['/api/market/list'].list.at(-1);
    expect(last).toMatchObject({ symbol: HOSTILE, base: '<b>&amp;' });
    expect(scriptJson({ s: '\u2028\u2029' })).toBe('{"s":"\\u2028\\u2029"}');
  });

  it('is revalidated on every use: no-cache, an ETag, 304 for the same page; the CSP still allows only the inline scripts built', async () => {
    const first = await navigate('/market');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('vary')).toMatch(/Accept-Encoding/i);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const again = await navigate('/market', { 'If-None-Match': String(etag) });
    expect(again.status).toBe(304);
    const csp = String(first.headers.get('content-security-policy'));
    expect(csp).toMatch(/script-src 'self' 'sha256-[^']+'(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline'[^;]*;[^;]*$|script-src[^;]*unsafe-inline/);
  });

  it("sends Brotli or gzip to a client that accepts them, and /index.html (the service worker's copy) as built", async () => {
    const plain = await (await navigate('/home', { 'Accept-Encoding': 'identity' })).text();
    for (const encoding of ['br', 'gzip'] as const) {
      const response = await server.app.inject({
        method: 'GET',
        url: '/home',
        headers: { accept: 'text/html', 'accept-encoding': encoding },
      });
      expect(response.headers['content-encoding']).toBe(encoding);
      const body =
        encoding === 'br' ? brotliDecompressSync(response.rawPayload) : gunzipSync(response.rawPayload);
      expect(body.toString()).toBe(plain);
    }
    expect(await (await fetch(`${server.url}/index.html`)).text()).toBe(PAGE);
    expect(encodingFor('gzip, br;q=0')).toBe('gzip');
    expect(encodingFor('deflate')).toBe('identity');
    // Until Brotli's prefix is compressed, the next accepted encoding is sent.
    expect(encodingsFor('gzip, deflate, br, zstd')).toEqual(['br', 'gzip', 'identity']);
    expect(encodingsFor('br;q=0, gzip;q=0')).toEqual(['identity']);
  });
});

describe('app page rendering', () => {
  it('renders at most once per refresh interval; a failed market answer sends the file as built', async () => {
    let wall = 0;
    let price = '1';
    let code = 0;
    const page = appPage({
      root: dir,
      now: () => 1_800_000_000_000 + wall,
      wall: () => wall,
      answer: async () => ({ code, data: { list: [{ symbol: 'BTC/USDT', latest: price }] } }),
    });
    if (!page) throw new Error('no page');
    const app = Fastify();
    await serveBuild(app, dir, { rootPage: false });
    app.get('/home', (request, reply) => page.send(request, reply));
    const get = async () => (await app.inject({ method: 'GET', url: '/home' })).body;
    try {
      expect(await get()).toContain('"latest":"1"');
      price = '2';
      expect(await get()).toContain('"latest":"1"');
      wall = 1_000;
      const html = await get();
      expect(html).toContain('"latest":"2"');
      expect(inlined(html).time).toBe(1_800_000_001);
      code = 503;
      wall = 2_000;
      expect(await get()).toBe(PAGE);
    } finally {
      await app.close();
    }
    // Meta-blocks of 4, 5 and 6 nibbles of length decode after a flushed (not finished) Brotli stream.
    for (const size of [1, 65_536, 65_537, 1_048_577]) {
      const bytes = Buffer.alloc(size, 'x');
      const prefix = brotliCompressSync('<p>', { finishFlush: constants.BROTLI_OPERATION_FLUSH });
      const decoded = brotliDecompressSync(Buffer.concat([prefix, brotliTail(bytes)]));
      expect(decoded.toString()).toBe(`<p>${bytes.toString()}`);
    }
  });
});
