/**
 * The back-office console's entry (admin.html, served at /admin): its own bundle, strings and styles, none of
 * which the member app loads or its service worker precaches (vite.config.ts). Routes live in the URL's hash
 * (/admin#/withdrawals), so /admin, /admin/ and /admin.html all open the same console without server routes.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { HashRouter } from 'react-router-dom';
import { AdminApp } from './App';
import { initAdminI18n } from './i18n';
import { SessionProvider } from './session';
import './admin.css';

function applyTheme(): void {
  const dark = globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

async function start(): Promise<void> {
  applyTheme();
  const i18n = await initAdminI18n();
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <SessionProvider>
          <HashRouter>
            <AdminApp />
          </HashRouter>
        </SessionProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}

void start();
