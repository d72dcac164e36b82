/**
 * Resolves in a new task: what follows runs after the browser has had a turn to paint and handle input.
 * Start-up work is split with it so that a slow phone never sees one long task (total blocking time).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The parts of `window` whenSettled uses (tests pass their own). */
export interface SettleHost {
  document: { readyState: DocumentReadyState };
  addEventListener(type: 'load', listener: () => void, options: { once: true }): void;
  requestIdleCallback?: (callback: IdleRequestCallback, options: IdleRequestOptions) => number;
  setTimeout(handler: () => void, ms: number): unknown;
}

/** An idle period this long means nothing else is scheduled: no frame to draw, no task queued. */
const QUIET_MS = 40;

/**
 * Resolves once the page has loaded and then gone quiet: an idle callback with at least 40 ms to spare, which
 * the browser only offers when it has no frame to draw and no task waiting. Work nobody on the screen waits
 * for (installing the service worker, which downloads and stores the whole app) starts then, so that on a
 * phone with few cores it does not compete with the first screen for the CPU. After `maxMs` it resolves
 * whatever happens; without idle callbacks it waits `fallbackMs` after the load. (Lighthouse's simulated
 * throttling caps `timeRemaining()` at 10 ms, so under it this always takes `maxMs`: docs/PWA.md, "When it
 * installs", gives the figures with an early install too.)
 */
export function whenSettled(
  { maxMs = 10_000, fallbackMs = 2_000 }: { maxMs?: number; fallbackMs?: number } = {},
  host: SettleHost = window,
): Promise<void> {
  return new Promise((resolve) => {
    const deadline = Date.now() + maxMs;
    // Settled once: after the cap, the idle loop below stops asking (under Lighthouse's shim no idle period
    // ever looks quiet, and it would otherwise ask at every idle period for the page's life).
    let settled = false;
    const settle = () => {
      settled = true;
      resolve();
    };
    host.setTimeout(settle, maxMs);
    const idle = () => {
      const request = host.requestIdleCallback?.bind(host);
      if (!request) {
        host.setTimeout(settle, fallbackMs);
        return;
      }
      const ask = () =>
        request(
          (idleDeadline) => {
            if (settled) return;
            if (idleDeadline.didTimeout || idleDeadline.timeRemaining() >= QUIET_MS) settle();
            else ask();
          },
          { timeout: Math.max(0, deadline - Date.now()) },
        );
      ask();
    };
    if (host.document.readyState === 'complete') idle();
    else host.addEventListener('load', idle, { once: true });
  });
}
