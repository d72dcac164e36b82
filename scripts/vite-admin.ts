/**
 * The back-office console (admin.html, src/admin) is a second entry of the same build, kept out of the member
 * app: its files are named `admin.html` and `assets/admin-*` (chunkFileName below, and Rollup's entry and
 * CSS names), the service worker's precache ignores them, and the member's navigation fallback never answers
 * /admin with index.html. scripts/admin-isolation.ts checks the built dist/ against the same rules.
 */
import type { Connect, Plugin } from 'vite';

/** Workbox globIgnores: the console's page, its entry, CSS and locale chunks. */
export const ADMIN_PRECACHE_IGNORES = ['**/admin.html', '**/assets/admin-*'];

/** Navigations the member service worker must leave to the network (the console's page). */
export const ADMIN_NAVIGATE_DENY = /^\/admin(\/|\.html$|$)/;

/** Console page paths a dev or preview server answers with admin.html. */
const ADMIN_PAGE = /^\/admin\/?(\?.*)?$/;

/** A chunk's file name when it belongs to the console (else undefined). */
export function adminChunkFileName(facadeModuleId: string | null | undefined): string | undefined {
  if (!facadeModuleId) return undefined;
  const locale = facadeModuleId.match(/[\\/]locales[\\/]([\w-]+)[\\/]admin\.json$/);
  if (locale) return `assets/admin-locale-${locale[1]}-[hash].js`;
  if (/[\\/]src[\\/]admin[\\/]/.test(facadeModuleId)) return 'assets/admin-[name]-[hash].js';
  return undefined;
}

const rewrite: Connect.NextHandleFunction = (req, _res, next) => {
  if (req.url && ADMIN_PAGE.test(req.url)) req.url = req.url.replace(/^\/admin\/?/, '/admin.html');
  next();
};

/**
 * `npm start` and `npm run preview` open the console at /admin as well as /admin.html (the production
 * server's route for it is described in docs/OPERATIONS.md "The console"). The built admin.html also drops
 * the member app's manifest link, which the PWA plugin adds to every page.
 */
export function adminPage(): Plugin {
  return {
    name: 'strata-admin-page',
    configureServer(server) {
      server.middlewares.use(rewrite);
    },
    configurePreviewServer(server) {
      server.middlewares.use(rewrite);
    },
    // The PWA plugin adds its manifest link in its own (later) transformIndexHtml: strip it from the emitted page.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['admin.html'];
        if (page?.type !== 'asset') return;
        page.source = String(page.source).replace(/\s*<link rel="manifest"[^>]*>/g, '');
      },
    },
  };
}

export function isAdminPage(path: string | undefined): boolean {
  return !!path && /(^|\/)admin\.html$/.test(path);
}
