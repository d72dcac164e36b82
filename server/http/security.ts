/**
 * Security headers on every answer: helmet's (the library @fastify/helmet wraps), built once at start;
 * `X-Request-Id`; HSTS only where the client reached us over TLS (directly, or per a trusted proxy's
 * header). @fastify/helmet itself builds helmet's middleware again for every request (its CSP parsed and
 * checked each time: ~130 µs against ~2 µs per request, docs/SERVER.md "HTTP"), and none of these headers
 * depends on the request (no CSP nonces), so the middleware is built once here.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/** SHA-256 sources of the inline scripts of the app's index.html, for the CSP's script-src. */
function inlineScriptHashes(staticDir: string | undefined): string[] {
  if (!staticDir) return [];
  const index = join(staticDir, 'index.html');
  if (!existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = match[1] ?? '';
    if (body.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

export interface SecurityOptions {
  /** The built app's directory: its index.html's inline scripts are allowed by their hashes. */
  staticDir?: string;
}

export const securityHeaders = fp<SecurityOptions>(
  async (app: FastifyInstance, { staticDir }) => {
    const secure = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...inlineScriptHashes(staticDir)],
          // React style attributes and the charts' inline styles.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          workerSrc: ["'self'", 'blob:'],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      hsts: false,
      // Uploaded images are shown by the app from its own origin, which may differ from the API's.
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    });
    app.addHook('onRequest', (request, reply, done) => {
      void reply.header('X-Request-Id', request.id);
      if (request.protocol === 'https')
        void reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
      secure(request.raw, reply.raw, (error) => done(error as Error | undefined));
    });
  },
  { name: 'strata-security-headers' },
);
