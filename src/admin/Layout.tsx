/**
 * The signed-in console: a skip link, the navigation (only the screens the operator's role may use), the
 * operator's name and role, the language, logout; focus moves to the main region on each screen change so
 * screen readers start at the new screen.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { LanguagePicker } from './LanguagePicker';
import { SCREENS } from './screens-list';
import { useSession } from './session';

export function Layout() {
  const { t } = useTranslation();
  const { operator, can, signOut } = useSession();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [pathname]);

  if (!operator) return null;
  return (
    <div className="admin-app">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        {t('app.skip')}
      </a>
      <header className="admin-top">
        <p className="admin-brand">{t('app.title')}</p>
        <div className="admin-who">
          <span>
            {t('app.signedInAs', { name: operator.username })}{' '}
            <span className="admin-role">{t(`roles.${operator.role}`)}</span>
          </span>
          <LanguagePicker />
          <button type="button" className="button" onClick={() => void signOut()}>
            {t('app.logout')}
          </button>
        </div>
      </header>
      <div className="admin-body">
        <nav className="admin-nav" aria-label={t('app.nav')}>
          <ul>
            {SCREENS.filter((s) => s.grants.some(can)).map((s) => (
              <li key={s.path}>
                <NavLink to={`/${s.path}`}>{t(`nav.${s.key}`)}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" ref={main} tabIndex={-1} className="admin-main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
