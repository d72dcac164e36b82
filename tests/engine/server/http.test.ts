/**
 * The engine on real HTTP (API.md "Envelope"): a member's round trip, bad input answered with an envelope
 * and never a crash, uploads in and out, CORS, per-IP captcha limits and the server-side timeout.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlStore } from '../../../server/sql-store';
import { login, register, signUp, startTestServer, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const schema = freshSchema();
let server: TestServer;

beforeAll(async () => {
  const storage = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({
    storage,
    config: { maxBodyBytes: 16 * 1024, captchaPerIpPerMinute: 6, corsOrigins: ['http://app.test'] },
  });
});

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

async function raw(path: string, init: RequestInit): Promise<{ code: number; msg: string }> {
  return (await (await fetch(`${server.url}${path}`, init)).json()) as { code: number; msg: string };
}

describe(`http (${sqlKind})`, () => {
  it('A6 captcha, register, login, getuser, logout: the token stops working after logout', async () => {
    expect((await register(server, 'ann')).code).toBe(0);
    const ann = await login(server, 'ann');
    const me = await server.call('/api/user/getuser', undefined, ann);
    expect(me.code).toBe(0);
    expect(me.data).toMatchObject({ id: ann.id, username: 'ann', balance: '0' });
    expect((await server.call('/api/index/logout', undefined, ann)).code).toBe(0);
    expect((await server.call('/api/user/getuser', undefined, ann)).code).toBe(401);
    // Live mode: the captcha image is the only way to read its code, and demo calls do not exist.
    expect((await server.get('/index/index/verify')).data).not.toHaveProperty('code');
    expect((await server.get('/api/site/getsite')).data).toMatchObject({ demo: false });
  });

  it('G5 malformed JSON answers 400 and an oversized body 413, as HTTP 200 envelopes; the server carries on', async () => {
    const post = (payload: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/index/login',
        payload,
        headers: { 'content-type': 'application/json' },
      });
    const bad = await post('{"username": ');
    expect(bad.statusCode).toBe(200);
    expect(bad.json<{ code: number }>().code).toBe(400);
    const big = await post(JSON.stringify({ username: 'x'.repeat(40_000), password: 'y' }));
    expect(big.statusCode).toBe(200);
    expect(big.json<{ code: number }>().code).toBe(413);
    expect((await raw('/api/nope', { method: 'POST', body: '{}' })).code).toBe(404);
    expect((await raw('/api/%E0%A4%A', { method: 'POST', body: '[1,2' })).code).toBeGreaterThanOrEqual(400);
    expect((await server.get('/api/site/getsite')).code).toBe(0);
  });

  it('A10 a multipart upload is stored and served back to its owner as its bytes, or as the envelope when JSON is asked for', async () => {
    const bob = await signUp(server, 'bob');
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'front.png');
    const res = await fetch(`${server.url}/api/user/uploads`, {
      method: 'POST',
      headers: bob.headers,
      body: form,
    });
    const up = (await res.json()) as { code: number; data: { url: string } };
    expect(up.code).toBe(0);
    const image = await fetch(`${server.url}${up.data.url}`, { headers: bob.headers });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('private, no-store');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
    const json = await fetch(`${server.url}${up.data.url}`, {
      headers: { ...bob.headers, Accept: 'application/json' },
    });
    expect(((await json.json()) as { data: { size: number } }).data.size).toBe(PNG.length);
    expect((await raw('/uploads/1-0000000000000000', {})).code).toBe(404);

    const broken = await raw('/api/user/uploads', {
      method: 'POST',
      headers: { ...bob.headers, 'Content-Type': 'multipart/form-data; boundary=zzz' },
      body: 'not multipart at all',
    });
    expect(broken.code).toBe(400);
  });

  it('CORS: the app origin may call with its headers; another origin gets no grant', async () => {
    const preflight = await fetch(`${server.url}/api/user/getuser`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://app.test', 'Access-Control-Request-Headers': 'authorization,userid' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/UserId/);
    const other = await fetch(`${server.url}/api/site/getsite`, { headers: { Origin: 'http://evil.test' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('A3 captchas are limited per client IP (429 after the limit within a minute)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await server.get('/index/index/verify')).code);
    expect(codes).toContain(429);
    expect(codes.filter((c) => c === 0).length).toBeLessThanOrEqual(6);
  });
});

describe('http timeout', () => {
  it('a call slower than the server-side limit answers 504 instead of hanging', async () => {
    const slow = await startTestServer({ config: { timeoutMs: 5, pbkdf2Iterations: 100_000 } });
    try {
      expect((await register(slow, 'carl')).code).toBe(504);
    } finally {
      await slow.close();
    }
  });
});

describe('http static app', () => {
  it('serves dist/ files, falls back to index.html for app routes, and never shadows engine paths', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-dist-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>Strata</title>');
    await writeFile(join(dir, 'assets', 'app-1.js'), 'console.log(1)');
    const app = await startTestServer({ config: { staticDir: dir } });
    const html = { headers: { Accept: 'text/html' } };
    try {
      const asset = await fetch(`${app.url}/assets/app-1.js`);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      expect(asset.headers.get('cache-control')).toMatch(/immutable/);
      expect(await (await fetch(`${app.url}/user/vip`, html)).text()).toMatch(/<title>Strata/);
      expect(await (await fetch(`${app.url}/%2e%2e/%2e%2e/etc/passwd`, html)).text()).toMatch(
        /<title>Strata/,
      );
      const api = (await (await fetch(`${app.url}/api/site/getsite`, html)).json()) as { code: number };
      expect(api.code).toBe(0);
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("sends the build's precompressed copies as they are to a client that accepts them", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-dist-'));
    await mkdir(join(dir, 'assets'));
    const page = `<!doctype html><title>Strata</title>${'<p>shell</p>'.repeat(200)}`;
    const script = `console.log(${JSON.stringify('x'.repeat(4000))})`;
    await writeFile(join(dir, 'index.html'), page);
    await writeFile(join(dir, 'index.html.br'), brotliCompressSync(page));
    await writeFile(join(dir, 'assets', 'app-1.js'), script);
    await writeFile(join(dir, 'assets', 'app-1.js.br'), brotliCompressSync(script));
    await writeFile(join(dir, 'assets', 'app-1.js.gz'), gzipSync(script));
    const app = await startTestServer({ config: { staticDir: dir } });
    try {
      // fetch decodes the body; the header says which copy was sent.
      const br = await fetch(`${app.url}/assets/app-1.js`, { headers: { 'Accept-Encoding': 'br, gzip' } });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('content-type')).toMatch(/javascript/);
      expect(await br.text()).toBe(script);
      const gz = await fetch(`${app.url}/assets/app-1.js`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(await gz.text()).toBe(script);
      const plain = await fetch(`${app.url}/assets/app-1.js`, { headers: { 'Accept-Encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(script);
      // An app route's page (index.html with its first data, app-page.test.ts) too, and the file as built.
      const shell = await fetch(`${app.url}/user/vip`, {
        headers: { Accept: 'text/html', 'Accept-Encoding': 'br' },
      });
      expect(shell.headers.get('content-encoding')).toBe('br');
      expect((await shell.text()).replace(/<script type="application\/json"[^<]*<\/script>$/, '')).toBe(page);
      const file = await fetch(`${app.url}/index.html`, { headers: { 'Accept-Encoding': 'br' } });
      expect(file.headers.get('content-encoding')).toBe('br');
      expect(await file.text()).toBe(page);
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
