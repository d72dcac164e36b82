import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { localeParts } from './scripts/vite-locale-parts.ts';
import { bundleReport } from './scripts/vite-bundle-report.ts';
import { staticShell } from './scripts/vite-shell.ts';
import { precompressBuild } from './scripts/vite-precompress.ts';
import {
  ADMIN_NAVIGATE_DENY,
  ADMIN_PRECACHE_IGNORES,
  adminChunkFileName,
  adminPage,
} from './scripts/vite-admin.ts';
import { parsePinnedKeys } from './engine/reserves/keys.ts';

/** The dark theme's page colour; index.html's theme-color meta says the same. */
const THEME_COLOR = '#0b1220';

/** What demo mode's engine worker loads before its first answer (the `engine-boot` chunk below). */
const ENGINE_BOOT_MODULES =
  /[\\/](engine|src)[\\/]|[\\/]node_modules[\\/](zod|comlink|dexie|@noble[\\/](hashes|curves)|@scure)[\\/]/;
/**
 * Loaded when a call needs it: passkey verification (@simplewebauthn/server), the reserves' Ed25519, address
 * derivation (engine/chain/addresses.ts: BIP-32 on secp256k1 with its HKDF and RIPEMD-160, ~24 KiB gzip;
 * engine/chain/domain.ts loads it on the first call that derives an address), the help centre's articles (one
 * chunk per locale, ~17 KiB gzip in all) and the authenticator codes' otplib.
 */
const LAZY_ENGINE_CODE =
  /[\\/]src[\\/]worker[\\/]engine\.worker\.ts$|ed25519|ed448|simplewebauthn|otplib|[\\/]engine[\\/]help[\\/]articles[\\/]|[\\/]engine[\\/]chain[\\/]addresses\.ts$|[\\/]node_modules[\\/](@noble[\\/]curves|@scure[\\/]bip32|@noble[\\/]hashes[\\/](hkdf|legacy)\.js)/;

/** The manifest spec's "auto" (ar-SA and fa-IR are right to left); the plugin's type lists only ltr and rtl. */
const DIR_AUTO = 'auto' as unknown as ManifestOptions['dir'];

/**
 * Stable chunk names the service worker and scripts/bundle-budget.ts rely on: each locale part becomes
 * `assets/locale-<lang>-<part>-<hash>.js` (scripts/vite-locale-parts.ts) and lightweight-charts (with its canvas helper) one `assets/chart-<hash>.js`.
 * Both load on demand, so neither is precached (ARCHITECTURE.md principle 9 and the budgets table).
 */
function chunkFileNames(chunk: { facadeModuleId: string | null }): string {
  const admin = adminChunkFileName(chunk.facadeModuleId);
  if (admin) return admin;
  const locale = chunk.facadeModuleId?.match(/virtual:locale-part\/([\w-]+)\/(\w+)$/);
  // The fallback language's parts (src/i18n addFallback) are precached, so they load offline: not `locale-*`.
  if (locale?.[1] === 'en-US') return `assets/fallback-en-US-${locale[2]}-[hash].js`;
  return locale ? `assets/locale-${locale[1]}-${locale[2]}-[hash].js` : 'assets/[name]-[hash].js';
}

/**
 * VITE_POR_PUBLIC_KEYS, the proof-of-reserves signing keys a live build pins (docs/OPERATIONS.md "Signing key
 * pinning"), is checked as the build starts: a mistyped key or valid-from fails the build instead of shipping
 * an app that trusts no key (or the wrong one).
 */
function pinnedReserveKeys(): Plugin {
  return {
    name: 'strata-por-public-keys',
    configResolved(config) {
      parsePinnedKeys(config.env['VITE_POR_PUBLIC_KEYS'] as string | undefined);
    },
  };
}

export default defineConfig({
  plugins: [
    pinnedReserveKeys(),
    localeParts(),
    // The report and budget describe the build members get by default; a live build (the e2e tests' second
    // build, VITE_API_MODE=live) leaves build-report/ as the default build wrote it.
    process.env['VITE_API_MODE'] === 'live' ? null : bundleReport(),
    staticShell(),
    adminPage(),
    react(),
    VitePWA({
      strategies: 'generateSW',
      // The member decides when to reload (src/pwa/UpdatePrompt.tsx); src/pwa/register.ts registers the worker.
      registerType: 'prompt',
      injectRegister: false,
      // globPatterns below already precaches public/'s icons once.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'Strata',
        short_name: 'Strata',
        description: 'Strata: USDT wallet, managed finance and trading that opens and works offline.',
        lang: 'zh-CN',
        dir: DIR_AUTO,
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: THEME_COLOR,
        background_color: THEME_COLOR,
        categories: ['finance'],
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/maskable-icon-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // A click on a system notification opens the notification centre (src/lib/system-notices.ts).
        importScripts: ['sw-notifications.js'],
        // The plugin adds manifest.webmanifest itself.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        // The back-office console (admin.html, assets/admin-*) is never precached (scripts/vite-admin.ts).
        globIgnores: ['**/assets/locale-*.js', '**/assets/chart-*.js', ...ADMIN_PRECACHE_IGNORES],
        // Every route opens offline from the shell; API calls and the socket never reach the fallback.
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/ws(\/|$)/, /^\/index\/index\//, ADMIN_NAVIGATE_DENY],
        cleanupOutdatedCaches: true,
        // Only the first install claims open pages (so they work offline at once); updates wait for the member.
        clientsClaim: true,
        skipWaiting: false,
        // Member data lives in IndexedDB: no rule below may match an API response.
        runtimeCaching: [
          {
            // Hashed file names never change content, so the cache answers first.
            urlPattern: ({ url, sameOrigin }) =>
              sameOrigin && /^\/assets\/(locale-[\w-]+|chart)-[\w-]+\.js$/.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'strata-lazy-chunks',
              expiration: { maxEntries: 60 },
              // Servers answer `Vary: Origin`; a module import sends Origin and the warm-up fetch does not.
              matchOptions: { ignoreVary: true },
            },
          },
          {
            urlPattern: ({ request, url, sameOrigin }) =>
              sameOrigin && request.destination === 'image' && !url.pathname.startsWith('/api/'),
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: 'strata-images',
              expiration: { maxEntries: 100, maxAgeSeconds: 30 * 24 * 60 * 60 },
            },
          },
        ],
      },
      devOptions: { enabled: false },
    }),
    // Last: compresses the build as it lies on disk, service worker included.
    precompressBuild(),
  ],
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // engine/ is pure (ARCHITECTURE.md principle 3: no module does anything when imported), so what the app
      // imports from engine/index.ts (the money module, the contract's constants) brings only what it uses, not
      // the chain code (@noble, @scure) behind the index's other exports. The worker bundle keeps its own.
      treeshake: { moduleSideEffects: [{ test: /[\\/]engine[\\/]/, sideEffects: false }] },
      // The member app and the back-office console (issue 12): two pages, the console's code only in its own.
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        admin: resolve(import.meta.dirname, 'admin.html'),
      },
      output: {
        chunkFileNames,
        codeSplitting: {
          groups: [{ name: 'chart', test: /[\\/]node_modules[\\/](lightweight-charts|fancy-canvas)[\\/]/ }],
        },
      },
    },
  },
  worker: {
    format: 'es',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The engine worker's first answer needs the engine and its route table: one chunk, which the page's
          // starter script fetches as it creates the worker (scripts/vite-shell.ts), instead of four waves of
          // chunks discovered one import at a time. The worker's entry stays a file of its own (its name is
          // what the app and the starter create), and code a call loads on demand stays in its own chunks.
          groups: [
            {
              name: 'engine-boot',
              test: (id: string) => ENGINE_BOOT_MODULES.test(id) && !LAZY_ENGINE_CODE.test(id),
            },
          ],
        },
      },
    },
  },
});
