/**
 * The route guard of SPEC.md §2 as a pure decision: with a stored user id every path but /login (which
 * sends to /); without one only the public paths, everything else to /login. Redirect helpers (/, /finance,
 * /redirect/...) are not decided here: they forward, and their target is guarded when it is reached.
 */

const PUBLIC_PATHS = new Set(['/login', '/register', '/forget', '/home', '/home/more']);

/** The router (React Router) matches case-insensitively and ignores a trailing slash; so does the guard. */
export function normalisePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (trimmed || '/').toLowerCase();
}

function isForwarding(path: string): boolean {
  return path === '/' || path === '/finance' || path === '/redirect' || path.startsWith('/redirect/');
}

/** Where to send the visitor instead, or null to show the path. */
export function guardRedirect(pathname: string, hasUser: boolean): string | null {
  const path = normalisePath(pathname);
  if (isForwarding(path)) return null;
  if (hasUser) return path === '/login' ? '/' : null;
  return PUBLIC_PATHS.has(path) ? null : '/login';
}
