/**
 * The member app's routing, on wouter (~2 KiB gzip; docs/PWA.md "Budgets and figures"): wouter matches the
 * routes (Switch, Route, useParams) and renders links; this module adds what the app relied on React Router
 * for, with the same behaviour:
 * - a history of entries, each with a key (kept in history.state with its index, `{ key, idx }`), and the
 *   navigation type (POP, PUSH, REPLACE): the shell restores scroll positions per entry with them;
 * - navigations are transitions (React.startTransition), so a screen whose code is still loading leaves the
 *   previous one on screen instead of the loading state;
 * - `navigate(-1)`, `<Navigate replace>`, `useSearchParams`, NavLink's active state and aria-current="page",
 *   and a link to the current location replacing its entry rather than stacking a copy;
 * - a memory history for tests and the build-time shell (createMemoryHistory).
 */
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type ReactNode,
} from 'react';
import { Link as WouterLink, Router } from 'wouter';

export { Route, Switch, useParams } from 'wouter';

/** Where the app is: the URL's parts and the key of its history entry ('default' for a foreign entry). */
export interface Location {
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  readonly key: string;
}

/** How the current entry was reached: back/forward or the first load (POP), a push, or a replacement. */
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface NavigateOptions {
  replace?: boolean;
}

export interface History {
  readonly location: Location;
  readonly action: NavigationType;
  /** The current entry's index among the app's entries: 0 when there is nothing of ours to go back to. */
  readonly index: number;
  /** The `href` of a link to `to`. */
  createHref(to: string): string;
  navigate(to: string, options?: NavigateOptions): void;
  go(delta: number): void;
  /** Calls `listener` after every change of location; answers the unsubscribe function. */
  listen(listener: () => void): () => void;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

/** `to` (absolute, or '?search' / '#hash' on the current path) as the parts of a location. */
function parseTo(to: string, from: Location): Omit<Location, 'key'> {
  const hashAt = to.indexOf('#');
  const hash = hashAt >= 0 ? to.slice(hashAt) : '';
  const rest = hashAt >= 0 ? to.slice(0, hashAt) : to;
  const searchAt = rest.indexOf('?');
  const search = searchAt >= 0 ? rest.slice(searchAt) : '';
  const pathname = searchAt >= 0 ? rest.slice(0, searchAt) : rest;
  return {
    pathname: pathname || from.pathname,
    search: search === '?' ? '' : search,
    hash: hash === '#' ? '' : hash,
  };
}

const href = (l: Omit<Location, 'key'>) => l.pathname + l.search + l.hash;

interface EntryState {
  key?: string;
  idx?: number;
}

/**
 * The browser's history: each of our entries carries `{ key, idx }` in history.state. The app's path is the
 * URL's own (`/home`) or, with `hash`, the URL's hash (`/admin#/withdrawals`, the console).
 */
function domHistory(hash: boolean): History {
  const entryState = () => (window.history.state ?? null) as EntryState | null;
  const read = (): Location => {
    const key = entryState()?.key ?? 'default';
    if (!hash)
      return {
        pathname: window.location.pathname,
        search: window.location.search,
        hash: window.location.hash,
        key,
      };
    const parts = parseTo(window.location.hash.slice(1), { pathname: '/', search: '', hash: '', key });
    return {
      ...parts,
      pathname: parts.pathname.startsWith('/') ? parts.pathname : `/${parts.pathname}`,
      key,
    };
  };
  const createHref = (to: string) => (hash ? `#${to}` : to);
  // The entry the page opened on is ours too, at index 0.
  if (typeof entryState()?.idx !== 'number') window.history.replaceState({ ...entryState(), idx: 0 }, '');
  let current = read();
  let action: NavigationType = 'POP';
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  window.addEventListener('popstate', () => {
    current = read();
    action = 'POP';
    notify();
  });
  return {
    get location() {
      return current;
    },
    get action() {
      return action;
    },
    get index() {
      return entryState()?.idx ?? 0;
    },
    createHref,
    navigate(to, { replace = false } = {}) {
      const idx = (entryState()?.idx ?? 0) + (replace ? 0 : 1);
      const state: EntryState = { key: newKey(), idx };
      window.history[replace ? 'replaceState' : 'pushState'](
        state,
        '',
        createHref(href(parseTo(to, current))),
      );
      current = read();
      action = replace ? 'REPLACE' : 'PUSH';
      notify();
    },
    go(delta) {
      window.history.go(delta);
    },
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The member app's history: the URL's path. */
export const createBrowserHistory = (): History => domHistory(false);

/** The console's history: the path in the URL's hash (/admin#/withdrawals). */
export const createHashHistory = (): History => domHistory(true);

/** A history in memory, opened on `path` (tests, and the build-time shell's server render). */
export function createMemoryHistory(path: string): History {
  const first: Location = {
    ...parseTo(path, { pathname: '/', search: '', hash: '', key: '' }),
    key: 'default',
  };
  const entries: Location[] = [first];
  let index = 0;
  let action: NavigationType = 'POP';
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  return {
    get location() {
      return entries[index] ?? first;
    },
    get action() {
      return action;
    },
    get index() {
      return index;
    },
    createHref: (to) => to,
    navigate(to, { replace = false } = {}) {
      const next: Location = { ...parseTo(to, entries[index] ?? first), key: newKey() };
      if (replace) entries[index] = next;
      else entries.splice(++index, entries.length, next);
      action = replace ? 'REPLACE' : 'PUSH';
      notify();
    },
    go(delta) {
      const next = Math.min(Math.max(index + delta, 0), entries.length - 1);
      if (next === index) return;
      index = next;
      action = 'POP';
      notify();
    },
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

interface RouterState {
  readonly location: Location;
  readonly action: NavigationType;
}

const HistoryContext = createContext<History | null>(null);
const StateContext = createContext<RouterState | null>(null);

function useHistory(): History {
  const history = useContext(HistoryContext);
  if (!history) throw new Error('the router is missing: render inside <AppRouter>');
  return history;
}

function useRouterState(): RouterState {
  const state = useContext(StateContext);
  if (!state) throw new Error('the router is missing: render inside <AppRouter>');
  return state;
}

/** The current location (the one rendered: a navigation in progress shows once it commits). */
export function useLocation(): Location {
  return useRouterState().location;
}

export function useNavigationType(): NavigationType {
  return useRouterState().action;
}

/** Whether there is an entry of ours to go back to (the page was not opened on this one). */
export function useCanGoBack(): () => boolean {
  const history = useHistory();
  return useCallback(() => history.index > 0, [history]);
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

/** navigate('/path'), navigate('/path', { replace: true }), navigate(-1) (back). */
export function useNavigate(): NavigateFunction {
  const history = useHistory();
  return useCallback(
    (to, options) => (typeof to === 'number' ? history.go(to) : history.navigate(to, options)),
    [history],
  );
}

/** The location's search parameters, and a setter that navigates to the same path with new ones. */
export function useSearchParams(): [
  URLSearchParams,
  (next: Record<string, string>, options?: NavigateOptions) => void,
] {
  const { pathname, search } = useLocation();
  const history = useHistory();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback(
    (next: Record<string, string>, options?: NavigateOptions) => {
      const query = new URLSearchParams(next).toString();
      history.navigate(pathname + (query ? `?${query}` : ''), options);
    },
    [history, pathname],
  );
  return [params, set];
}

// wouter's location hooks, reading the state above (so wouter's routes follow the same transitions).
function useWouterLocation(): [string, (to: string, options?: NavigateOptions) => void] {
  const history = useHistory();
  return [useLocation().pathname, history.navigate];
}
function useWouterSearch(): string {
  return useLocation().search;
}

/**
 * The router: holds the rendered location in React state, updated in a transition on every change of the
 * history's, and lends it to wouter.
 */
export function AppRouter({ history, children }: { history: History; children: ReactNode }) {
  const [state, setState] = useState<RouterState>(() => ({
    location: history.location,
    action: history.action,
  }));
  useLayoutEffect(() => {
    const update = () =>
      startTransition(() => setState({ location: history.location, action: history.action }));
    const stop = history.listen(update);
    // A navigation between the first render and this subscription (a child's layout effect) is not lost.
    if (history.location !== state.location) update();
    return stop;
    // The state read above is the first render's; later ones arrive through the listener.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [history]);
  return (
    <HistoryContext.Provider value={history}>
      <StateContext.Provider value={state}>
        <Router hook={useWouterLocation} searchHook={useWouterSearch} hrefs={history.createHref}>
          {children}
        </Router>
      </StateContext.Provider>
    </HistoryContext.Provider>
  );
}

/** Goes to `to` once rendered (a redirect); `replace`: in place of the current entry. */
export function Navigate({ to, replace = false }: { to: string; replace?: boolean }): null {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(to, { replace });
  }, [navigate, to, replace]);
  return null;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  replace?: boolean;
};

/** A link within the app; to the current location it replaces the entry instead of adding a copy. */
export function Link({ to, replace, ...props }: LinkProps) {
  const here = href(useLocation());
  return <WouterLink to={to} replace={replace ?? to === here} {...props} />;
}

/** Whether `to` is the current path or one of its ancestors (case-insensitive, as routes match). */
function isActive(pathname: string, to: string): boolean {
  const path = pathname.toLowerCase();
  const target = to.toLowerCase();
  return path === target || (path.startsWith(target) && path.charAt(target.length) === '/');
}

/** A link marked as the current one (class "active", aria-current="page") on its path and below it. */
export function NavLink({ to, className, ...props }: LinkProps) {
  const active = isActive(useLocation().pathname, to);
  return (
    <Link
      to={to}
      className={[className, active ? 'active' : null].filter(Boolean).join(' ')}
      aria-current={active ? 'page' : undefined}
      {...props}
    />
  );
}
