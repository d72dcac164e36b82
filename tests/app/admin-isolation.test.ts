/**
 * Issue 12 item 3: the console is not in the member's precache and the member's navigation fallback never
 * answers /admin (scripts/vite-admin.ts, used by vite.config.ts). scripts/admin-isolation.ts checks a built
 * dist/ against the same rules after `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_NAVIGATE_DENY, ADMIN_PRECACHE_IGNORES, adminChunkFileName } from '../../scripts/vite-admin';

const config = readFileSync(join(import.meta.dirname, '../../vite.config.ts'), 'utf8');

/** Workbox's glob patterns as regular expressions (only ** / and * are used here). */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('**/')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('(?:.*/)?');
  return new RegExp(`^${body}$`);
}

const ignored = (file: string) => ADMIN_PRECACHE_IGNORES.some((g) => globToRegExp(g).test(file));

describe('the console stays out of the member app (vite.config.ts)', () => {
  it('builds admin.html as a second input and names its chunks assets/admin-*', () => {
    expect(config).toMatch(/input:\s*\{[^}]*admin:\s*resolve\([^)]*'admin\.html'\)/);
    expect(adminChunkFileName('/repo/locales/de-DE/admin.json')).toBe('assets/admin-locale-de-DE-[hash].js');
    expect(adminChunkFileName('/repo/src/admin/screens/Audit.tsx')).toBe('assets/admin-[name]-[hash].js');
    expect(adminChunkFileName('/repo/src/features/home/HomePage.tsx')).toBeUndefined();
    expect(adminChunkFileName('virtual:locale-part/de-DE/core')).toBeUndefined();
  });

  it('keeps admin files out of the precache and member files in it', () => {
    expect(config).toMatch(/globIgnores:\s*\[[^\]]*\.\.\.ADMIN_PRECACHE_IGNORES/);
    for (const file of [
      'admin.html',
      'assets/admin-B1x2.js',
      'assets/admin-Cq9.css',
      'assets/admin-locale-fa-IR-D3.js',
    ])
      expect(ignored(file), file).toBe(true);
    for (const file of ['index.html', 'assets/index-B1x2.js', 'assets/HomePage-x.js', 'assets/Dialog-y.js'])
      expect(ignored(file), file).toBe(false);
  });

  it('does not answer /admin navigations with the member shell', () => {
    expect(config).toMatch(/navigateFallbackDenylist:\s*\[[^\]]*ADMIN_NAVIGATE_DENY/);
    for (const path of ['/admin', '/admin/', '/admin/withdrawals', '/admin.html'])
      expect(ADMIN_NAVIGATE_DENY.test(path), path).toBe(true);
    for (const path of ['/home', '/administrator', '/user/admin', '/admin.htmlx'])
      expect(ADMIN_NAVIGATE_DENY.test(path), path).toBe(false);
  });
});
