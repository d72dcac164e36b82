/**
 * The first screen's data comes before background work (docs/PWA.md "The data path"). On a screen whose
 * first data does not depend on them (/home: the quotes come from the engine, or the device's last copy), the
 * device sync, the outbox's notices, the feed's socket machine (XState) and the service worker's install wait
 * until that data is on screen, instead of competing with it for a slow link and a slow phone's CPU.
 *
 * `holdForFirstData()` (main.tsx, for such a screen) makes `afterFirstData()` wait; the screen calls
 * `noteFirstData()` once its data (or its error) is shown. Without a hold, `afterFirstData()` answers at once;
 * with one, it answers after `noteFirstData()` or, whatever happens, after `maxMs`.
 */

let held: Promise<void> | null = null;
let release: () => void = () => undefined;

/** The opened screen's first data is awaited: background work waits for it (at most `maxMs`). */
export function holdForFirstData(maxMs = 10_000): void {
  if (held) return;
  held = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, maxMs);
  });
}

/** The opened screen shows its first data (or why it has none). */
export function noteFirstData(): void {
  release();
}

/** Resolves once the first data is on screen (at once when start-up holds nothing for it). */
export function afterFirstData(): Promise<void> {
  return held ?? Promise.resolve();
}

/** Tests: back to no hold. */
export function resetFirstData(): void {
  release();
  held = null;
  release = () => undefined;
}
