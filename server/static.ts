/**
 * Optional: the built app (dist/) served by the same process, so one port is enough for live mode. Files
 * are served as they are; any other GET that is not an engine path and asks for HTML gets index.html (the
 * app's client-side routes). Paths are resolved inside the directory only.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Paths the engine answers (the wire contract), never shadowed by files. */
const ENGINE_PATH = /^\/(api|index|uploads|test|ws)(\/|$)/;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** True when the request was answered from `dir`. */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  dir: string,
  path: string,
): Promise<boolean> {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || ENGINE_PATH.test(path)) return false;
  const root = resolve(dir);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  let file = resolve(join(root, decoded));
  if (file !== root && !file.startsWith(root + sep)) return false;
  if (!(await isFile(file))) {
    if (!/text\/html/.test(req.headers.accept ?? '')) return false;
    file = join(root, 'index.html');
    if (!(await isFile(file))) return false;
  }
  const hashed = /\/assets\//.test(file);
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') res.end();
  else
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  return true;
}
