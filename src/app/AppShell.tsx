/**
 * The layout every screen shares: skip link, top bar (title, back button off the tabs, demo badge), the
 * guarded outlet, bottom tabs on tab screens, global popups and toasts. Sets document.title per route.
 */
import { useEffect } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { OnlineIndicator } from '../pwa/OnlineIndicator';
import { UpdatePrompt } from '../pwa/UpdatePrompt';
import { SyncStatusButton } from '../sync/SyncStatusButton';
import { Icon } from '../ui/icons';
import { DemoBadge } from './DemoBadge';
import { guardRedirect } from './guard';
import { isTabPath } from './paths';
import { GlobalPopups } from './popups/GlobalPopups';
import { TabBar } from './TabBar';
import { Toaster } from './Toaster';
import { useUser } from './user-store';

export interface RouteHandle {
  titleKey: string;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && typeof (value as RouteHandle).titleKey === 'string';
}

function useTitleKey(): string {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return handle.titleKey;
  }
  return 'routes.home';
}

function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = () => {
    // React Router keeps the history index in history.state; at 0 there is nothing of ours to go back to.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate('/home');
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
  const titleKey = useTitleKey();
  const title = t(titleKey);
  const redirect = guardRedirect(pathname, user !== null);
  const tab = isTabPath(pathname);

  useEffect(() => {
    document.title = `${title} - ${t('common.appName')}`;
  }, [title, t]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <header className="topbar">
        <div className="topbar-start">{!tab && <BackButton />}</div>
        <h1 className="topbar-title">{title}</h1>
        <div className="topbar-end">
          <SyncStatusButton />
          <DemoBadge />
        </div>
      </header>
      <OnlineIndicator />
      <main id="main" className={tab ? 'content with-tabs' : 'content'} tabIndex={-1}>
        {redirect ? <Navigate to={redirect} replace /> : <Outlet />}
      </main>
      {tab && <TabBar />}
      <ScrollRestoration />
      <GlobalPopups />
      <UpdatePrompt />
      <Toaster />
    </div>
  );
}
