/**
 * The page's leader election: one exclusive lock per tab's lifetime, and the jobs that should run only in
 * the leading tab (e.g. the device half of the sync) subscribe with onLeadership(). The engine's own
 * scheduled jobs are elected inside its worker (src/worker/engine.worker.ts, lock 'strata:jobs').
 */
import { useSyncExternalStore } from 'react';
import { runAsLeader, type LeaderHandle, type LeaderOptions, type LeaderTask } from './leader';
import { valueStore } from './store';

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
