import { matchPath } from 'react-router-dom';
import { PATHS, type AppPath, type ScreenName } from '../lib/paths';

/**
 * Every screen of SPEC.md §2 with its title key. Pure data: the router, the guard tests and the /home/more
 * list all read it, so a route cannot exist in one place and be missing in another.
 */

export interface ScreenInfo {
  path: AppPath;
  /** Key under routes.* in locales/<lang>/translation.json. */
  titleKey: string;
  /** One of the five bottom tabs: no back button in the top bar. */
  tab?: boolean;
}

export const TABS = [
  { path: PATHS.home, labelKey: 'nav.home', icon: 'home' },
  { path: PATHS.market, labelKey: 'nav.market', icon: 'market' },
  { path: PATHS.contract, labelKey: 'nav.contract', icon: 'trade' },
  { path: PATHS.financial, labelKey: 'nav.financial', icon: 'finance' },
  { path: PATHS.user, labelKey: 'nav.user', icon: 'assets' },
] as const;

export type TabIcon = (typeof TABS)[number]['icon'];

/** Every screen of PATHS, its title key being `routes.<name>`. */
export const SCREENS: readonly ScreenInfo[] = (Object.keys(PATHS) as ScreenName[]).map((name) => {
  const path = PATHS[name];
  return TABS.some((t) => t.path === path)
    ? { path, titleKey: `routes.${name}`, tab: true }
    : { path, titleKey: `routes.${name}` };
});

/** Paths that only redirect: / -> /home, /finance -> /finance/finance, /redirect/{path} -> /{path}. */
export const REDIRECTS: Readonly<Record<string, AppPath>> = {
  '/': PATHS.home,
  '/finance': PATHS.finance,
};

export function isTabPath(pathname: string): boolean {
  return TABS.some((t) => t.path === pathname);
}

/**
 * The title key of the page at `pathname` (the top bar and document.title), matched as the router matches
 * (case-insensitive, a trailing slash allowed).
 */
export function titleKeyOf(pathname: string): string {
  const matches = (path: string) => matchPath({ path, end: true }, pathname) !== null;
  const screen = SCREENS.find((s) => matches(s.path));
  if (screen) return screen.titleKey;
  if (Object.keys(REDIRECTS).some(matches) || matches('/redirect/*')) return 'routes.redirect';
  return 'routes.notFound';
}
