/**
 * The member app's page with the first screen's public data in it: a navigation to an app route gets
 * index.html with /api/market/list's `data` and the server's time inlined as a JSON script
 * (`strata-first-data`), rendered at most once a second from the engine's memory, escaped for a script
 * element, revalidated on every use (`no-cache`, ETag). /index.html itself stays as built. Why and how:
 * docs/PWA.md "Live mode: first data in the HTML".
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, crc32, deflateRaw } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const FIRST_DATA_ID = 'strata-first-data';
/** The calls whose answers the page carries (their `data`, keyed by contract path). */
export const FIRST_DATA_CALLS = ['/api/market/list'] as const;

/** What the page carries: each call's `data` and the server's time when they were read (Unix seconds). */
export interface FirstData {
  time: number;
  answers: Record<string, unknown>;
}

type Encoding = 'br' | 'gzip' | 'identity';

const brotli = promisify(brotliCompress);
const deflate = promisify(deflateRaw);
/** How long one rendered page serves every navigation (prices move on the feed after that). */
export const PAGE_REFRESH_MS = 1_000;

/**
 * The page's bytes before the data, compressed once at start and never again (Brotli at quality 11, as the
 * build's own copy: ~1.6 s of a libuv thread on a loaded 2-core machine, off the main thread), left open
 * (flushed, not finished) so that each render only appends: Brotli, the data and the rest of the page as
 * one uncompressed meta-block and the empty last one (RFC 7932 9.2); gzip, the rest deflated on its own
 * after the prefix's sync-flushed blocks, with the CRC continued over it (RFC 1951, 1952). A render costs
 * the market answer and ~0.1 ms of deflate instead of recompressing 190 KB (~10-40 ms at Brotli 6, 36 KiB
 * against the 33 KiB sent here).
 */
interface Prefixes {
  br: Promise<Buffer>;
  gzip: Promise<{ deflated: Buffer; crc: number }>;
  /**
   * Which are compressed: until Brotli's is (the first ~1-2 s after start), a navigation gets gzip (ready
   * within tens of milliseconds) or the page uncompressed, never a wait.
   */
  ready: Set<Encoding>;
}

function compressPrefix(head: Buffer): Prefixes {
  const br = brotli(head, {
    finishFlush: constants.BROTLI_OPERATION_FLUSH,
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: head.length,
    },
  });
  const gzip = deflate(head, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }).then((deflated) => ({
    deflated,
    crc: crc32(head),
  }));
  const ready = new Set<Encoding>(['identity']);
  // A failure leaves that encoding out (the page goes in another), never an unhandled rejection.
  br.then(() => ready.add('br')).catch(() => undefined);
  gzip.then(() => ready.add('gzip')).catch(() => undefined);
  return { br, gzip, ready };
}

/** An uncompressed, not-last Brotli meta-block holding `bytes` (up to 16 MiB), then the empty last one. */
export function brotliTail(bytes: Buffer): Buffer {
  const mlen = bytes.length - 1;
  if (mlen < 0 || mlen >= 1 << 24) throw new RangeError('a meta-block holds 1 byte to 16 MiB');
  const nibbles = mlen < 1 << 16 ? 4 : mlen < 1 << 20 ? 5 : 6;
  // ISLAST 0 (1 bit), MNIBBLES - 4 (2 bits), MLEN - 1 (4 bits a nibble), ISUNCOMPRESSED 1; least significant first.
  const bits = 0n | (BigInt(nibbles - 4) << 1n) | (BigInt(mlen) << 3n) | (1n << BigInt(3 + 4 * nibbles));
  const size = Math.ceil((4 + 4 * nibbles) / 8);
  const header = Buffer.alloc(size);
  for (let i = 0; i < size; i++) header[i] = Number((bits >> BigInt(8 * i)) & 0xffn);
  // ISLAST 1, ISLASTEMPTY 1.
  return Buffer.concat([header, bytes, Buffer.from([0x03])]);
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/** JSON that is safe inside a `<script>` element: no `<`, `>` or `&`, no line separators. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${code}`;
  });
}

/** The element that carries `data`. */
export function firstDataElement(data: FirstData): string {
  return `<script type="application/json" id="${FIRST_DATA_ID}">${scriptJson(data)}</script>`;
}

/** The encodings the client accepts, best first (a `q=0` refuses one); identity last, always. */
export function encodingsFor(header: string | undefined): Encoding[] {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  return [...(['br', 'gzip'] as const).filter((e) => accepted.has(e)), 'identity'];
}

/** The best encoding the client accepts. */
export function encodingFor(header: string | undefined): Encoding {
  return encodingsFor(header)[0] ?? 'identity';
}

interface Rendered {
  /** null: no data this time, the file as built is sent. */
  tail: Buffer | null;
  etag: string;
  encoded: Map<Encoding, Promise<Buffer | null>>;
}

export interface AppPageOptions {
  /** The built app's directory (its index.html). */
  root: string;
  /** Each call's answer as the engine gives it (`code` 0: its `data` goes in the page). */
  answer: (path: string) => Promise<{ code: number; data: unknown }>;
  /** The server's clock (ms): the data's time. */
  now: () => number;
  /** The wall clock for the page's refresh (ms); tests may move it. */
  wall?: () => number;
  refreshMs?: number;
}

export interface AppPage {
  send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

/** The app page of `root`, or null when the build has no index.html. */
export function appPage(options: AppPageOptions): AppPage | null {
  const file = join(options.root, 'index.html');
  if (!existsSync(file)) return null;
  const built = readFileSync(file, 'utf8');
  // The data goes just before </body>: after the shell and its script, so the first paint's bytes come first.
  const cut = built.lastIndexOf('</body>');
  const head = Buffer.from(cut < 0 ? built : built.slice(0, cut));
  const rest = cut < 0 ? '' : built.slice(cut);
  const prefixes = compressPrefix(head);
  const wall = options.wall ?? Date.now;
  const refreshMs = options.refreshMs ?? PAGE_REFRESH_MS;
  let current: { at: number; page: Promise<Rendered> } | null = null;
  const none: Rendered = { tail: null, etag: '', encoded: new Map() };

  async function render(): Promise<Rendered> {
    const answers: Record<string, unknown> = {};
    const time = Math.floor(options.now() / 1000);
    try {
      for (const path of FIRST_DATA_CALLS) {
        const answer = await options.answer(path);
        if (answer.code !== 0) return none;
        answers[path] = answer.data;
      }
    } catch {
      return none;
    }
    const tail = Buffer.from(firstDataElement({ time, answers }) + rest);
    const etag = `W/"${createHash('sha256').update(head).update(tail).digest('base64url').slice(0, 22)}"`;
    return { tail, etag, encoded: new Map() };
  }

  function page(): Promise<Rendered> {
    const at = wall();
    if (!current || at - current.at >= refreshMs || at < current.at) current = { at, page: render() };
    return current.page;
  }

  async function encodeAs(tail: Buffer, encoding: Encoding): Promise<Buffer | null> {
    if (encoding === 'br') return Buffer.concat([await prefixes.br, brotliTail(tail)]);
    if (encoding === 'gzip') {
      const prefix = await prefixes.gzip;
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc32(tail, prefix.crc) >>> 0, 0);
      trailer.writeUInt32LE((head.length + tail.length) >>> 0, 4);
      return Buffer.concat([GZIP_HEADER, prefix.deflated, await deflate(tail, { level: 6 }), trailer]);
    }
    return Buffer.concat([head, tail]);
  }

  function encode(rendered: Rendered, tail: Buffer, encoding: Encoding): Promise<Buffer | null> {
    let body = rendered.encoded.get(encoding);
    if (!body) {
      body = encodeAs(tail, encoding).catch(() => null);
      rendered.encoded.set(encoding, body);
    }
    return body;
  }

  return {
    async send(request, reply) {
      const rendered = await page();
      void reply.header('Cache-Control', 'no-cache');
      const tail = rendered.tail;
      if (tail === null) return reply.sendFile('index.html');
      void reply.header('ETag', rendered.etag).header('Vary', 'Accept-Encoding');
      const match = request.headers['if-none-match'];
      if (match && match.split(',').some((tag) => tag.trim() === rendered.etag))
        return reply.code(304).send();
      let encoding =
        encodingsFor(request.headers['accept-encoding']).find((e) => prefixes.ready.has(e)) ?? 'identity';
      let body = await encode(rendered, tail, encoding);
      if (body === null) {
        encoding = 'identity';
        body = await encode(rendered, tail, encoding);
      }
      if (encoding !== 'identity') void reply.header('Content-Encoding', encoding);
      return reply.type('text/html; charset=utf-8').send(body);
    },
  };
}
