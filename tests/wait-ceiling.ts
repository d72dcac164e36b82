/**
 * `vi.waitFor`'s ceiling for every test file (vitest.config.ts setupFiles), as tests/setup-app.ts raises
 * Testing Library's: a state that takes a second on a loaded 2-core CI machine (a message across worker
 * threads, a pull's IndexedDB transactions) is still waited for, never given up on at Vitest's default of
 * one second. A call that names its own timeout keeps it.
 */
import { vi } from 'vitest';

export const WAIT_CEILING_MS = 10_000;

const CEILING = Symbol.for('strata.waitCeiling');
type Patched = typeof vi.waitFor & { [CEILING]?: true };

// Files that share a worker (isolate: false) run this once each: wrap the original once.
if (!(vi.waitFor as Patched)[CEILING]) {
  const waitFor = vi.waitFor.bind(vi);
  const patched: Patched = ((callback, options) =>
    waitFor(
      callback,
      typeof options === 'number' ? options : { timeout: WAIT_CEILING_MS, ...options },
    )) as typeof vi.waitFor;
  patched[CEILING] = true;
  vi.waitFor = patched;
}
