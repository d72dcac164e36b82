/**
 * The signed-in operator: restored from sessionStorage on load (checked with GET /api/admin/me), set by the
 * login screen, cleared by logout or by any 401. `can(grant)` mirrors ROLE_GRANTS so the console hides what
 * the role may not use; the server refuses it anyway.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ROLE_GRANTS, type Operator } from '../../contract/admin/model';
import { adminCall, clearSession, onUnauthorized, readStoredOperator, readToken, saveSession } from './api';

export type Grant = keyof typeof ROLE_GRANTS;

export function roleMay(operator: Operator | null, grant: Grant): boolean {
  return (
    !!operator && !operator.disabled && (ROLE_GRANTS[grant] as readonly string[]).includes(operator.role)
  );
}

interface SessionValue {
  operator: Operator | null;
  /** True once the stored session has been checked (or there was none). */
  ready: boolean;
  /** Why the operator is on the login screen: 'expired' after a 401. */
  ended: 'expired' | null;
  signIn: (token: string, operator: Operator) => void;
  signOut: () => Promise<void>;
  can: (grant: Grant) => boolean;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [operator, setOperator] = useState<Operator | null>(() =>
    readToken() ? readStoredOperator() : null,
  );
  const [ready, setReady] = useState(() => !readToken());
  const [ended, setEnded] = useState<'expired' | null>(null);

  useEffect(
    () =>
      onUnauthorized(() => {
        setOperator(null);
        setEnded('expired');
      }),
    [],
  );

  useEffect(() => {
    if (ready) return;
    let live = true;
    adminCall('GET /api/admin/me', {})
      .then((me) => {
        if (!live) return;
        const token = readToken();
        if (token) saveSession(token, me);
        setOperator(me);
      })
      .catch(() => undefined)
      .finally(() => {
        if (live) setReady(true);
      });
    return () => {
      live = false;
    };
  }, [ready]);

  const signIn = useCallback((token: string, who: Operator) => {
    saveSession(token, who);
    setEnded(null);
    setOperator(who);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await adminCall('POST /api/admin/logout', {});
    } catch {
      // The session ends on this device whatever the server answered.
    }
    clearSession();
    setEnded(null);
    setOperator(null);
  }, []);

  const value = useMemo<SessionValue>(
    () => ({ operator, ready, ended, signIn, signOut, can: (grant) => roleMay(operator, grant) }),
    [operator, ready, ended, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
