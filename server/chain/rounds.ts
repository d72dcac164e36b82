/**
 * A background round on a timer (the deposit watcher, the send reconciler): rounds never overlap (a call
 * while one runs gets that one), the timer runs only when `everyMs` > 0, and `close()` stops it and waits for
 * the round in progress. After close, a round answers `idle` without running.
 */
export interface Rounds<T> {
  round(): Promise<T>;
  close(): Promise<void>;
}

export function periodicRounds<T>(everyMs: number, run: () => Promise<T>, idle: T): Rounds<T> {
  let running: Promise<T> | null = null;
  let closed = false;
  const round = (): Promise<T> =>
    (running ??= (closed ? Promise.resolve(idle) : run()).finally(() => {
      running = null;
    }));
  const timer = everyMs > 0 ? setInterval(() => void round(), everyMs) : undefined;
  return {
    round,
    close: async () => {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
