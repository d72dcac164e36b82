/**
 * Whether the storage answers, as the server's own units of work find out (docs/OPERATIONS.md "Runbook:
 * database outage"). A unit that cannot reach the database answers 503 to its caller; this is what tells the
 * operator: one `warn` line when the storage stops answering, an `error` line once the outage has lasted
 * `escalateAfterMs` (and again every `repeatEveryMs` while it lasts, however many calls fail), and a `warn`
 * line when the next statement gets through, with how long it was away and how many calls failed.
 */

/** The two pino methods used (the server's logger). */
export interface OutageLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface StorageHealthOptions {
  /** An outage longer than this is logged at error (default 10 s). */
  escalateAfterMs?: number;
  /** While it lasts, the error line is repeated this often at most (default 60 s). */
  repeatEveryMs?: number;
  now?: () => number;
}

/** Told by the storage of each unit that failed to reach the database, and of each one that got through. */
export interface AvailabilityObserver {
  failed(error: unknown): void;
  succeeded(): void;
}

function reason(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(cause);
  return typeof code === 'string' ? `${code}: ${text}` : text;
}

export class StorageHealth implements AvailabilityObserver {
  private since: number | null = null;
  private failures = 0;
  private lastError = '';
  private loudAt: number | null = null;
  private readonly escalateAfterMs: number;
  private readonly repeatEveryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly log: OutageLog,
    options: StorageHealthOptions = {},
  ) {
    this.escalateAfterMs = options.escalateAfterMs ?? 10_000;
    this.repeatEveryMs = options.repeatEveryMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** When the current outage began (ms), or null while the storage answers. */
  get downSince(): number | null {
    return this.since;
  }

  failed(error: unknown): void {
    const now = this.now();
    this.failures++;
    this.lastError = reason(error);
    if (this.since === null) {
      this.since = now;
      this.log.warn(
        { err: this.lastError },
        'storage unreachable: calls that need the database answer 503 until it is back',
      );
      return;
    }
    const downForMs = now - this.since;
    if (downForMs < this.escalateAfterMs) return;
    if (this.loudAt !== null && now - this.loudAt < this.repeatEveryMs) return;
    this.loudAt = now;
    this.log.error(
      { downForMs, failures: this.failures, err: this.lastError },
      `storage still unreachable after ${(downForMs / 1000).toFixed(1)} s`,
    );
  }

  succeeded(): void {
    if (this.since === null) return;
    const downForMs = this.now() - this.since;
    this.log.warn(
      { downForMs, failures: this.failures, lastError: this.lastError },
      `storage reachable again after ${(downForMs / 1000).toFixed(1)} s (${this.failures} failed calls)`,
    );
    this.since = null;
    this.failures = 0;
    this.loudAt = null;
  }
}
