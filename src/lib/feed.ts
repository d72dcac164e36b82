/**
 * The hooks screens use for the real-time feed. The socket machine itself (./feed-actor.ts, with XState)
 * is not needed to paint any screen, so it loads once the page is idle after first paint and stays off
 * /home's critical path (scripts/bundle-budget.ts); listeners registered before then receive every message
 * from the moment it connects, as before.
 */
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { FeedMessage } from '../../engine/index';
import type * as FeedActorExports from './feed-actor';
import { afterFirstData } from './after-first-data';

type FeedModule = typeof FeedActorExports;

let loaded: FeedModule | null = null;
let loading: Promise<FeedModule> | null = null;

function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 1_500 });
  else setTimeout(run, 0);
}

/**
 * The feed module, loaded (once) when the page is next idle; on /home only after the first quotes are on
 * screen (src/lib/after-first-data.ts: they come from the market list call, not the feed).
 */
export function loadFeed(): Promise<FeedModule> {
  loading ??= afterFirstData()
    .then(() => new Promise<void>((resolve) => whenIdle(resolve)))
    .then(() => import('./feed-actor'))
    .then((module) => (loaded = module));
  return loading;
}

/** Calls `listener` for every feed message while the component is mounted; the latest closure wins. */
export function useFeed(listener: (message: FeedMessage) => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let mounted = true;
    void loadFeed().then(({ feedActor }) => {
      if (!mounted) return;
      const subscription = feedActor().on('message', (event) => ref.current(event.message));
      unsubscribe = () => subscription.unsubscribe();
    });
    return () => {
      mounted = false;
      unsubscribe?.();
    };
  }, []);
}

export type FeedState = 'live' | 'waiting' | 'offline';

/**
 * 'live' while the feed is connected; 'offline' while the browser says it is offline (the socket rests, the
 * prices on screen are stale); 'waiting' while it loads or waits to reconnect.
 */
export function feedStateNow(): FeedState {
  if (!loaded) return 'waiting';
  if (loaded.isFeedLive()) return 'live';
  return loaded.isFeedOffline() ? 'offline' : 'waiting';
}

/** The feed's state as a React value (see feedStateNow). */
export function useFeedState(): FeedState {
  const subscribe = useCallback((changed: () => void) => {
    let unsubscribe: (() => void) | undefined;
    let mounted = true;
    void loadFeed().then(({ feedActor }) => {
      if (!mounted) return;
      const subscription = feedActor().subscribe(changed);
      unsubscribe = () => subscription.unsubscribe();
      changed();
    });
    return () => {
      mounted = false;
      unsubscribe?.();
    };
  }, []);
  // The build-time shell (rendered on the server) shows the feed as not live yet: it is not, before the app runs.
  return useSyncExternalStore(subscribe, feedStateNow, () => 'waiting');
}

/** True while the feed is connected; false while it loads, waits to reconnect or rests offline. */
export function useFeedLive(): boolean {
  return useFeedState() === 'live';
}
