/**
 * HTTP: every request becomes one engine.handle({ method, path, headers, body }) and its envelope goes back
 * as HTTP 200 JSON (API.md "Envelope"). What only a network server needs is here: CORS for the app's
 * origin, a body size limit, a 12 s limit per call, captchas counted per client IP, upload images served as
 * bytes, and an answer (never a crash) for any input.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine, EngineResponse } from '../engine/index';
import { BodyError, readBody } from './body';
import type { ServerConfig } from './config';
import { RateLimiter } from './rate-limit';
import { serveStatic } from './static';

export interface HttpDeps {
  engine: Engine;
  config: ServerConfig;
  /** Told of every answered call (the socket hub re-checks sessions after logout or a password change). */
  onAnswered?: (path: string, headers: Record<string, string>, response: EngineResponse) => void;
}

const CAPTCHA_PATH = '/index/index/verify';
/** Calls waiting for the engine beyond this answer 503 at once instead of queueing without bound. */
const MAX_IN_FLIGHT = 512;

function envelope(code: number, msg: string, data: unknown = null): EngineResponse {
  return { status: 200, body: { code, msg, data } };
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') out[name] = value;
    else if (Array.isArray(value)) out[name] = value.join(', ');
  }
  return out;
}

function cors(req: IncomingMessage, res: ServerResponse, allowed: readonly string[]): void {
  const origin = req.headers.origin;
  if (!origin || !(allowed.includes('*') || allowed.includes(origin))) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, UserId, Content-Type');
  res.setHeader('Access-Control-Max-Age', '600');
}

function sendJson(res: ServerResponse, response: EngineResponse): void {
  let text: string;
  try {
    text = JSON.stringify(response.body);
  } catch {
    text = JSON.stringify(envelope(500, 'Server exception').body);
  }
  res.writeHead(response.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * An <img> cannot read an envelope: a stored upload is answered as its bytes, unless the caller asks for
 * JSON (Accept: application/json), which gets the engine's envelope `{ name, type, size, dataUrl }`.
 */
function sendUpload(req: IncomingMessage, res: ServerResponse, response: EngineResponse): boolean {
  const data = response.body.data as { type?: unknown; dataUrl?: unknown } | null;
  const wantsJson = /^application\/json\b/i.test(req.headers.accept ?? '');
  if (wantsJson || response.body.code !== 0 || typeof data?.dataUrl !== 'string') return false;
  const match = /^data:([\w./+-]+);base64,(.*)$/s.exec(data.dataUrl);
  if (!match?.[1] || match[2] === undefined) return false;
  const bytes = Buffer.from(match[2], 'base64');
  res.writeHead(200, {
    'Content-Type': match[1],
    'Content-Length': bytes.length,
    // Identity documents: private, never sniffed into something executable.
    'Cache-Control': 'private, max-age=86400',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'",
  });
  res.end(bytes);
  return true;
}

function withTimeout<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createHttpHandler(deps: HttpDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { engine, config } = deps;
  const captchas = new RateLimiter(config.captchaPerIpPerMinute, 60_000);
  let inFlight = 0;

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    cors(req, res, config.corsOrigins);
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (config.staticDir && (await serveStatic(req, res, config.staticDir, path))) return;

    const ip = req.socket.remoteAddress ?? 'unknown';
    if (method === 'GET' && path === CAPTCHA_PATH && !captchas.hit(ip, Date.now())) {
      sendJson(res, envelope(429, 'Too many requests: wait a minute and try again'));
      return;
    }
    let body: string | FormData | undefined;
    try {
      body = await readBody(req, config.maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      // The rest of an oversized body is not read: close the connection once the answer is out.
      res.setHeader('Connection', 'close');
      res.on('finish', () => req.destroy());
      sendJson(res, envelope(error.code, error.message));
      return;
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      sendJson(res, envelope(503, 'The server is busy: try again in a moment'));
      return;
    }
    const headers = headersOf(req);
    const late = envelope(504, 'The server took too long to answer: check the result before trying again');
    inFlight++;
    const work = engine.handle({ method, path, headers, body }).then((response) => {
      inFlight--;
      // Also for a call that outlived its timeout: a late logout still ends the sockets' session.
      deps.onAnswered?.(path, headers, response);
      return response;
    });
    const response = await withTimeout(work, config.timeoutMs, late);
    if (method === 'GET' && path.startsWith('/uploads/') && sendUpload(req, res, response)) return;
    sendJson(res, response);
  }

  return (req, res) => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    answer(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, envelope(500, 'Server exception'));
      else res.destroy();
    });
  };
}
