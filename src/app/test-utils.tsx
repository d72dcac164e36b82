/** Renders the real route table in a memory router with en-US loaded, for component tests. */
import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation, useNavigate, type Location } from 'react-router-dom';
import { initI18n, i18next } from '../i18n';
import { AppRoutes } from './routes';
import { userStore, type LocalUser } from '../state/user-store';

export const TEST_USER: LocalUser = { id: '1', token: 't', username: 'alice', vip: 'vip0', balance: '0' };

/** What a test reads of the router: where it is, and a way to go elsewhere as the app does from outside. */
export interface TestRouter {
  readonly state: { readonly location: Location };
  navigate(to: string): void;
}

function RouterProbe({ probe }: { probe: { location?: Location; navigate?: (to: string) => void } }) {
  const location = useLocation();
  const navigate = useNavigate();
  probe.location = location;
  useEffect(() => {
    probe.navigate = (to) => void navigate(to);
  }, [navigate, probe]);
  return null;
}

export async function renderApp(path: string, options: { user?: LocalUser | null } = {}) {
  if (!i18next.isInitialized) await initI18n('en-US');
  if (options.user) userStore.set(options.user);
  else userStore.clear();
  const probe: { location?: Location; navigate?: (to: string) => void } = {};
  const router: TestRouter = {
    get state() {
      if (!probe.location) throw new Error('the router has not rendered yet');
      return { location: probe.location };
    },
    navigate(to) {
      if (!probe.navigate) throw new Error('the router has not mounted yet');
      probe.navigate(to);
    },
  };
  const view = render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter initialEntries={[path]}>
        <RouterProbe probe={probe} />
        <AppRoutes />
      </MemoryRouter>
    </I18nextProvider>,
  );
  return { router, ...view };
}
