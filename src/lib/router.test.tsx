import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense, type ReactElement } from 'react';
import {
  AppRouter,
  createBrowserHistory,
  createHashHistory,
  createMemoryHistory,
  Link,
  NavLink,
  Route,
  Switch,
  useLocation,
  useNavigationType,
  useParams,
  useSearchParams,
} from './router';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

describe('histories', () => {
  it('memory: pushes, replaces and goes back, with a new key per entry and the navigation type', () => {
    const history = createMemoryHistory('/home?x=1#top');
    expect(history.location).toMatchObject({
      pathname: '/home',
      search: '?x=1',
      hash: '#top',
      key: 'default',
    });
    expect([history.action, history.index]).toEqual(['POP', 0]);
    history.navigate('/market');
    const pushed = history.location;
    expect([pushed.pathname, history.action, history.index]).toEqual(['/market', 'PUSH', 1]);
    history.navigate('/user', { replace: true });
    expect([history.location.pathname, history.action, history.index]).toEqual(['/user', 'REPLACE', 1]);
    expect(history.location.key).not.toBe(pushed.key);
    history.go(-1);
    expect([history.location.pathname, history.action, history.index]).toEqual(['/home', 'POP', 0]);
    history.navigate('?symbol=BTC');
    expect(history.location).toMatchObject({ pathname: '/home', search: '?symbol=BTC', hash: '' });
  });

  it('browser: keeps { key, idx } in history.state and reads it back on popstate', () => {
    window.history.replaceState(null, '', '/home');
    const history = createBrowserHistory();
    expect(window.history.state).toEqual({ idx: 0 });
    expect(history.location).toMatchObject({ pathname: '/home', key: 'default' });
    history.navigate('/market?s=1');
    const state = window.history.state as { key: string; idx: number };
    expect(state.idx).toBe(1);
    expect(history.location).toMatchObject({ pathname: '/market', search: '?s=1', key: state.key });
    expect([history.action, history.index]).toEqual(['PUSH', 1]);
    history.navigate('/user', { replace: true });
    expect([window.location.pathname, history.index, history.action]).toEqual(['/user', 1, 'REPLACE']);
    // Another script's entry (no key, no index): nothing of ours to go back to.
    window.history.pushState({}, '', '/finance/finance');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(history.location).toMatchObject({ pathname: '/finance/finance', key: 'default' });
    expect([history.action, history.index]).toEqual(['POP', 0]);
  });

  it("hash: the path, search and hash live in the URL's hash; links point into it", () => {
    window.history.replaceState(null, '', '/admin#/members/m%201?tab=ledger');
    const history = createHashHistory();
    expect(history.location).toMatchObject({ pathname: '/members/m%201', search: '?tab=ledger' });
    expect(history.createHref('/withdrawals')).toBe('#/withdrawals');
    history.navigate('/audit');
    expect([window.location.pathname, window.location.hash]).toEqual(['/admin', '#/audit']);
    window.history.replaceState(null, '', '/admin');
    expect(createHashHistory().location.pathname).toBe('/');
  });
});

function Where() {
  const { pathname, search } = useLocation();
  return (
    <p data-testid="where">
      {pathname}
      {search} {useNavigationType()}
    </p>
  );
}

describe('AppRouter', () => {
  it('matches case-insensitively with params; a link to the current location replaces its entry', async () => {
    const history = createMemoryHistory('/Members/42/');
    function Member() {
      return <h2>member {useParams().id}</h2>;
    }
    render(
      <AppRouter history={history}>
        <Switch>
          <Route path="/members/:id" component={Member} />
          <Route>
            <h2>other</h2>
          </Route>
        </Switch>
        <Link to="/home">home</Link>
        <Where />
      </AppRouter>,
    );
    expect(screen.getByRole('heading').textContent).toBe('member 42');
    await userEvent.click(screen.getByRole('link', { name: 'home' }));
    expect(screen.getByTestId('where').textContent).toBe('/home PUSH');
    expect(history.index).toBe(1);
    await userEvent.click(screen.getByRole('link', { name: 'home' }));
    expect(screen.getByTestId('where').textContent).toBe('/home REPLACE');
    expect(history.index).toBe(1);
  });

  it('NavLink marks its path and the paths below it with aria-current="page" and the active class', () => {
    render(
      <AppRouter history={createMemoryHistory('/user/vip')}>
        <NavLink to="/user" className="tab">
          user
        </NavLink>
        <NavLink to="/home" className="tab">
          home
        </NavLink>
      </AppRouter>,
    );
    const user = screen.getByRole('link', { name: 'user' });
    expect([user.getAttribute('aria-current'), user.className, user.getAttribute('href')]).toEqual([
      'page',
      'tab active',
      '/user',
    ]);
    const home = screen.getByRole('link', { name: 'home' });
    expect([home.hasAttribute('aria-current'), home.className]).toEqual([false, 'tab']);
  });

  it('useSearchParams reads the search and sets it on the same path', async () => {
    const history = createMemoryHistory('/contract?symbol=BTC%2FUSDT');
    function Symbol() {
      const [params, setParams] = useSearchParams();
      return (
        <button type="button" onClick={() => setParams({ symbol: 'ETH/USDT' }, { replace: true })}>
          {params.get('symbol')}
        </button>
      );
    }
    render(
      <AppRouter history={history}>
        <Symbol />
      </AppRouter>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'BTC/USDT' }));
    expect(history.location).toMatchObject({ pathname: '/contract', search: '?symbol=ETH%2FUSDT' });
    expect([history.action, history.index]).toEqual(['REPLACE', 0]);
    expect(await screen.findByRole('button', { name: 'ETH/USDT' })).toBeTruthy();
  });

  it('a navigation is a transition: the previous screen stays while the next one loads', async () => {
    const history = createMemoryHistory('/home');
    let resolve: (() => void) | undefined;
    const Slow = lazy(
      () =>
        new Promise<{ default: () => ReactElement }>((r) => {
          resolve = () => r({ default: () => <h2>slow</h2> });
        }),
    );
    render(
      <AppRouter history={history}>
        <Suspense fallback={<p>loading</p>}>
          <Switch>
            <Route path="/home">
              <h2>home</h2>
            </Route>
            <Route path="/slow" component={Slow} />
          </Switch>
        </Suspense>
      </AppRouter>,
    );
    act(() => history.navigate('/slow'));
    expect(screen.getByRole('heading').textContent).toBe('home');
    expect(screen.queryByText('loading')).toBeNull();
    await act(async () => resolve?.());
    expect((await screen.findByRole('heading')).textContent).toBe('slow');
  });
});
