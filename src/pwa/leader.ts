/**
 * One tab leads: it runs the engine's scheduled jobs (Engine.settle on a timer) and the sync, so two tabs
 * never settle the same withdrawal or replay the same outbox twice. Leadership is an exclusive Web Lock held
 * for the tab's life; when the leader tab closes or crashes the browser releases the lock and the next
 * waiting tab takes over at once. No React or DOM here: the engine's worker (src/worker) uses it too.
 */
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
