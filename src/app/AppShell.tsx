/**
 * The layout every screen shares: skip link, top bar (title, back button off the tabs, demo badge), the
 * guarded outlet, bottom tabs on tab screens, global popups and toasts. Sets document.title per route.
 */
import { Component, Suspense, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { OnlineIndicator } from '../pwa/OnlineIndicator';
import { UpdatePrompt } from '../pwa/UpdatePrompt';
import { SyncStatusButton } from '../sync/SyncStatusButton';
import { Icon } from '../ui/icons';
import { ErrorState, LoadingState } from '../ui/States';
import { DemoBadge } from './DemoBadge';
import { LanguageButton, showsLanguageButton } from './LanguageButton';
import { guardRedirect } from './guard';
import { isTabPath, titleKeyOf } from './paths';
import { GlobalPopups } from './popups/GlobalPopups';
import { TabBar } from './TabBar';
import { Toaster } from './Toaster';
import { useUser } from '../state/user-store';
import { PATHS } from '../lib/paths';

/**
 * Scroll positions as a member expects them: a new page opens at the top; going back (or forward) returns to
 * where that page was left. Positions are kept per history entry for the page's life.
 */
function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef(new Map<string, number>());
  useLayoutEffect(() => {
    const saved = positions.current;
    const key = location.key;
    window.scrollTo(0, navigationType === 'POP' ? (saved.get(key) ?? 0) : 0);
    return () => {
      saved.set(key, window.scrollY);
    };
  }, [location.key, navigationType]);
}

/** A screen whose code could not load (offline before it was ever cached): say so, offer to try again. */
class ScreenBoundary extends Component<{ children: ReactNode; message: string }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <ErrorState message={this.props.message} onRetry={() => window.location.reload()} />;
  }
}

function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = () => {
    // React Router keeps the history index in history.state; at 0 there is nothing of ours to go back to.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(PATHS.home);
  };
  return (
    <button type="button" className="icon-button back" onClick={goBack} aria-label={t('common.back')}>
      <Icon name="back" className="flip-rtl" />
    </button>
  );
}

export function AppShell() {
  const { t } = useTranslation();
  const user = useUser();
  const { pathname } = useLocation();
  const title = t(titleKeyOf(pathname));
  const redirect = guardRedirect(pathname, user !== null);
  const tab = isTabPath(pathname);

  useEffect(() => {
    document.title = `${title} - ${t('common.appName')}`;
  }, [title, t]);
  useScrollRestoration();

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <header className="topbar">
        <div className="topbar-start">
          {!tab && <BackButton />}
          {showsLanguageButton(pathname) && <LanguageButton />}
        </div>
        <h1 className="topbar-title">{title}</h1>
        <div className="topbar-end">
          <SyncStatusButton />
          <DemoBadge />
        </div>
      </header>
      <OnlineIndicator />
      <main id="main" className={tab ? 'content with-tabs' : 'content'} tabIndex={-1}>
        {redirect ? (
          <Navigate to={redirect} replace />
        ) : (
          <ScreenBoundary key={pathname} message={t('common.screenLoadFailed')}>
            <Suspense fallback={<LoadingState />}>
              <Outlet />
            </Suspense>
          </ScreenBoundary>
        )}
      </main>
      {tab && <TabBar />}
      <GlobalPopups />
      <UpdatePrompt />
      <Toaster />
    </div>
  );
}
