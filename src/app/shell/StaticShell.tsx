/**
 * The shell as it looks before any data: the top bar, the tab bar, the demo badge and, on /home, the real
 * HomePage in its loading state (the quotes card's loading skeleton). scripts/vite-shell.ts renders it at
 * build time with react-dom/server into index.html, so the first paint needs no JavaScript; src/main.tsx
 * then mounts the real app (AppShell + the screen) over the same markup.
 *
 * It is built from the same components as AppShell (TabBar, DemoBadge, Icon, HomePage) and repeats only
 * AppShell's own elements (skip link, header, main); src/app/shell/shell.test.tsx renders both and fails
 * when they differ.
 */
import type { i18n as I18n } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { AssetsPage } from '../../features/assets/AssetsPage';
import { HomePage } from '../../features/home/HomePage';
import { MarketPage } from '../../features/market/MarketPage';
import { TransferRecordsPage } from '../../features/records/TransferRecordsPage';
import { Icon } from '../../ui/icons';
import { LoadingState } from '../../ui/States';
import { DemoBadge } from '../DemoBadge';
import { LanguageButton, showsLanguageButton } from '../LanguageButton';
import { SCREENS, isTabPath } from '../paths';
import { TabBar } from '../TabBar';
import { userStore } from '../../state/user-store';

/** The routes a member can enter directly (bookmarks, the installed app's start URL, shared links). */
export const SHELL_ROUTES = [
  '/home',
  '/market',
  '/contract',
  '/financial',
  '/user',
  '/order/transferRecord',
  '/login',
] as const;
export type ShellRoute = (typeof SHELL_ROUTES)[number];

/**
 * The screens whose loading state is their full layout (headings, notes, "--" in place of figures) render
 * as themselves, so their largest text paints with the shell; the others show the loading state.
 */
function ShellScreen({ path }: { path: ShellRoute }) {
  if (path === '/home') return <HomePage />;
  if (path === '/market') return <MarketPage />;
  if (path === '/user') return <AssetsPage />;
  if (path === '/order/transferRecord') return <TransferRecordsPage />;
  return <LoadingState />;
}

export function StaticShell({ path }: { path: ShellRoute }) {
  const { t } = useTranslation();
  const titleKey = SCREENS.find((s) => s.path === path)?.titleKey ?? 'routes.home';
  const tab = isTabPath(path);
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <header className="topbar">
        <div className="topbar-start">
          {!tab && (
            <button type="button" className="icon-button back" aria-label={t('common.back')}>
              <Icon name="back" className="flip-rtl" />
            </button>
          )}
          {showsLanguageButton(path) && <LanguageButton />}
        </div>
        <h1 className="topbar-title">{t(titleKey)}</h1>
        <div className="topbar-end">
          <DemoBadge shell />
        </div>
      </header>
      <main id="main" className={tab ? 'content with-tabs' : 'content'} tabIndex={-1}>
        <ShellScreen path={path} />
      </main>
      {tab && <TabBar />}
    </div>
  );
}

/**
 * A member as the shell shows one: the page fills in the stored name (scripts/shell-html.ts); the balance
 * shows as "--" until the app reads it, rather than a number the shell would have to round itself.
 */
const SHELL_MEMBER = { id: 'shell', token: '', username: '', vip: 'vip0', balance: '-' };

/**
 * The shell of `path` as HTML, its strings taken from `i18n` (already initialised); `member`: as a logged-in
 * member sees it (on /home: the welcome and balance instead of the guest's invitation).
 */
export function renderShell(path: ShellRoute, i18n: I18n, member = false): string {
  // /user is a member's screen: a guest's shell is the guard's /login instead (scripts/shell-html.ts).
  member ||= path === '/user' || path === '/order/transferRecord';
  if (member) userStore.set(SHELL_MEMBER);
  try {
    return renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <StaticShell path={path} />
        </MemoryRouter>
      </I18nextProvider>,
    );
  } finally {
    if (member) userStore.clear();
  }
}
