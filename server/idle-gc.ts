/**
 * A memory-reducing garbage collection once the instance falls idle after work (docs/SERVER.md "Memory").
 *
 * V8 collects when allocation fills its spaces. A browser also tells V8 when the page is idle, and V8 then
 * collects and gives memory back to the system; Node never does, so the garbage of a busy minute (the
 * requests' parsed bodies, rows, promises: ~200 kB per transfer) stays in the heap, and its pages in the
 * process's RSS, until enough new allocation comes along, which an idle instance never makes. Measured on
 * 2026-11-29 (2-core AMD EPYC, the server bench): 60 s after the runs the heap still held 57-77 MB used of
 * 72-110 MB, against 48 MB used of 58 MB just after start.
 *
 * So: every `everyMs` this looks at how many requests the HTTP server took since the last look. When the
 * last period saw none but the instance answered requests since its last collection (or has just started:
 * the start-up's garbage, schemas compiled, migrations read), it runs one collection. The collector is V8's
 * low-memory collection, reached through the inspector protocol's `HeapProfiler.collectGarbage` on an
 * in-process session (no port is opened): full collections that also give the freed pages back to the
 * system. `global.gc()` (`--expose-gc`) collects as much but keeps the freed pages pooled for reuse, so the
 * RSS barely moves: on a 300 MB churned heap, RSS 301 -> 287 MB against 298 -> 66 MB (Node 24.21,
 * 2026-11-29). One per busy-then-idle turn, never while requests arrive; a request that arrives during the
 * collection waits for it (tens of ms on a 60-100 MB heap).
 */
/** Collects the heap and gives its free pages back. */
export type Collect = () => Promise<void>;

export interface IdleGc {
  /** Counts one request (the HTTP server's 'request' event; a balancer's probes are not counted). */
  request(): void;
  /** Stops the timer. */
  stop(): void;
  /** Collections run so far. */
  readonly collections: number;
}

export interface IdleGcOptions {
  /** How long without a request counts as idle, in ms (IDLE_GC_MS); 0 turns it off. */
  everyMs: number;
  /** The collector; by default V8's low-memory collection (`lowMemoryCollect`). */
  collect?: Collect;
  /** Told after each collection: RSS before and after, in bytes, and the time it took in ms. */
  onCollect?: (figures: { before: number; after: number; ms: number }) => void;
  /** Told when a collection fails; there is no further one (a Node built without the inspector fails each time). */
  onError?: (error: unknown) => void;
}

/**
 * V8's low-memory collection, through an in-process inspector session opened for it. The inspector module is
 * loaded here, not at start: a Node built without it fails this call, not the server's start.
 */
export async function lowMemoryCollect(): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
  } finally {
    session.disconnect();
  }
}

export function idleGc(options: IdleGcOptions): IdleGc {
  const collect = options.collect ?? lowMemoryCollect;
  let requests = 0;
  let seen = 0;
  /** Requests answered since the last collection; at first, the start-up's own garbage. */
  let dirty = true;
  let running = false;
  let collections = 0;
  const tick = () => {
    if (requests !== seen) {
      seen = requests;
      dirty = true;
      return;
    }
    if (!dirty || running) return;
    dirty = false;
    running = true;
    const before = process.memoryUsage.rss();
    const started = performance.now();
    collect().then(
      () => {
        running = false;
        collections++;
        options.onCollect?.({ before, after: process.memoryUsage.rss(), ms: performance.now() - started });
      },
      (error: unknown) => {
        clearInterval(timer);
        options.onError?.(error);
      },
    );
  };
  const timer = options.everyMs > 0 ? setInterval(tick, options.everyMs) : undefined;
  timer?.unref();
  return {
    request: () => {
      requests++;
    },
    stop: () => clearInterval(timer),
    get collections() {
      return collections;
    },
  };
}
