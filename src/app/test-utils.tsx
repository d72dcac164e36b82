/** Renders the real route table in a memory router with en-US loaded, for component tests. */
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { initI18n, i18next } from '../i18n';
import { routes } from './routes';
import { userStore, type LocalUser } from './user-store';

export const TEST_USER: LocalUser = { id: '1', token: 't', username: 'alice', vip: 'vip0', balance: '0' };

export async function renderApp(path: string, options: { user?: LocalUser | null } = {}) {
  if (!i18next.isInitialized) await initI18n('en-US');
  if (options.user) userStore.set(options.user);
  else userStore.clear();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <I18nextProvider i18n={i18next}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return { router, ...view };
}
