/**
 * One tab leads: it runs the engine's scheduled jobs (Engine.settle on a timer) and the sync, so two tabs
 * never settle the same withdrawal or replay the same outbox twice. Leadership is an exclusive Web Lock held
 * for the tab's life; when the leader tab closes or crashes the browser releases the lock and the next
 * waiting tab takes over at once.
 */
import { useSyncExternalStore } from 'react';
import { valueStore } from './store';

/** What a leader does; the returned function (if any) undoes it when leadership ends. */
export type LeaderTask = (signal: AbortSignal) => void | (() => void) | Promise<void | (() => void)>;

export interface LeaderHandle {
  /** True while this tab holds the lock and the task has started. */
  readonly leading: boolean;
  /** Stop leading (or stop waiting to lead) and release the lock. */
  stop(): void;
}

type Locks = Pick<LockManager, 'request'>;

export interface LeaderOptions {
  locks?: Locks;
  onError?: (error: unknown) => void;
}

export function runAsLeader(name: string, task: LeaderTask, options: LeaderOptions = {}): LeaderHandle {
  const locks = options.locks ?? (typeof navigator !== 'undefined' ? navigator.locks : undefined);
  const onError =
    options.onError ?? ((error: unknown) => console.error(`leader task '${name}' failed`, error));
  const controller = new AbortController();
  const { signal } = controller;
  let leading = false;

  const lead = async () => {
    if (signal.aborted) return;
    leading = true;
    let cleanup: void | (() => void) = undefined;
    try {
      cleanup = await task(signal);
      // Hold the lock until stop() (or the tab goes away, which releases it without running this).
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      leading = false;
      cleanup?.();
    }
  };

  if (!locks) {
    // No Web Locks (Safari before 15.4): this tab leads alone; two such tabs may both lead.
    lead().catch(onError);
  } else {
    locks.request(name, { mode: 'exclusive', signal }, lead).catch((error: unknown) => {
      // stop() while still waiting rejects the request with an AbortError: that is not a failure.
      if (!signal.aborted) onError(error);
    });
  }

  return {
    get leading() {
      return leading;
    },
    stop: () => controller.abort(),
  };
}

/** The app's one election (started by src/pwa/bootstrap.ts); jobs subscribe with onLeadership(). */
export const APP_LEADER_LOCK = 'strata:leader';

const isLeader = valueStore(false);
const tasks = new Set<LeaderTask>();
const running = new Map<LeaderTask, AbortController>();
let election: LeaderHandle | undefined;

function start(task: LeaderTask): void {
  const controller = new AbortController();
  running.set(task, controller);
  Promise.resolve(task(controller.signal))
    .then((cleanup) => {
      if (!cleanup) return;
      if (controller.signal.aborted) cleanup();
      else controller.signal.addEventListener('abort', cleanup, { once: true });
    })
    .catch((error: unknown) => console.error('leader job failed', error));
}

function stopAll(): void {
  for (const controller of running.values()) controller.abort();
  running.clear();
}

export function startLeaderElection(options: LeaderOptions = {}): LeaderHandle {
  election ??= runAsLeader(
    APP_LEADER_LOCK,
    () => {
      isLeader.set(true);
      for (const task of tasks) start(task);
      return () => {
        stopAll();
        isLeader.set(false);
      };
    },
    options,
  );
  return election;
}

/** Runs `task` whenever this tab is the leader (now, if it already is). Returns an unsubscribe. */
export function onLeadership(task: LeaderTask): () => void {
  tasks.add(task);
  if (isLeader.get()) start(task);
  return () => {
    tasks.delete(task);
    running.get(task)?.abort();
    running.delete(task);
  };
}

export function useIsLeader(): boolean {
  return useSyncExternalStore(isLeader.subscribe, isLeader.get, isLeader.get);
}

/** For tests: end the election and forget its jobs. */
export function resetLeadershipForTests(): void {
  election?.stop();
  election = undefined;
  stopAll();
  tasks.clear();
  isLeader.set(false);
}
