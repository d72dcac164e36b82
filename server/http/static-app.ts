/**
 * The built app as the server sends it (the Lighthouse bench serves dist/ the same way):
 * files of dist/ with their build-time Brotli and gzip copies (scripts/vite-precompress.ts), hashed assets
 * cached for a year, pages never; a navigation to an app route gets the member app's page, or the operator
 * console's under /admin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { AppPage } from './app-page';

const ADMIN_PAGE = /^\/admin(\/|$)/;

/**
 * Serves the files of `root` (an absolute path) as they were at start. `rootPage: false`: `/` is left to the
 * caller (the member server answers it with the app page and its first data, app-page.ts).
 */
export async function serveBuild(
  app: FastifyInstance,
  root: string,
  { rootPage = true }: { rootPage?: boolean } = {},
): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    ...(rootPage ? {} : { index: false }),
    // Routes for the files present at start only: nothing outside the directory can ever be named.
    wildcard: false,
    // The build writes Brotli and gzip siblings of every text file: they are sent as they are to a client
    // that accepts them, never compressed again per request.
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      void res.header(
        'Cache-Control',
        /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}

/** The built app as a plugin of the member server (navigations, `/` too: engine-routes.ts calls sendPage). */
export const staticApp = fp<{ root: string }>((app, { root }) => serveBuild(app, root, { rootPage: false }), {
  name: 'strata-static-app',
});

/**
 * The page a navigation to `path` opens: the operator console is its own page (admin.html,
 * docs/OPERATIONS.md "The console"), never the member app; its screens are addressed after a '#', so /admin
 * and /admin/... all get that one page.
 */
export function pageFor(path: string): 'admin.html' | 'index.html' {
  return ADMIN_PAGE.test(path) ? 'admin.html' : 'index.html';
}

/**
 * Answers a navigation to `path` with its page (never cached without revalidation: a new build must be
 * picked up); the member app's page with its first data when `app` is given (app-page.ts).
 */
export function sendPage(
  reply: FastifyReply,
  path: string,
  app?: { page: AppPage; request: FastifyRequest },
): FastifyReply | Promise<FastifyReply> {
  const page = pageFor(path);
  if (page === 'index.html' && app) return app.page.send(app.request, reply);
  return reply.header('Cache-Control', 'no-cache').sendFile(page);
}
