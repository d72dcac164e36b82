/**
 * Refreshes the locally kept balance and level while a logged-in screen is open (/home shows the stored
 * copy) from the device replica. A missing replica leaves the last known figures on screen.
 */
import { useEffect } from 'react';

export function useBalanceRefresh(userId: string | undefined): void {
  useEffect(() => {
    if (!userId) return;
    let stopped = false;
    let stop: (() => void) | undefined;
    void import('./stored-user-sync').then(({ followStoredUser }) => {
      if (!stopped) stop = followStoredUser(userId);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [userId]);
}
