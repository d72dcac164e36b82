/**
 * A sliding-window counter per key (client IP): at most `limit` hits in any `windowMs`. Idle keys are
 * forgotten, so a scan from many addresses cannot grow the map without bound for longer than one window.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts a hit at `now` and says whether it is allowed; refused hits are not counted. */
  hit(key: string, now: number): boolean {
    this.sweep(now);
    const since = now - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return false;
    }
    recent.push(now);
    this.hits.set(key, recent);
    return true;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, times] of this.hits) {
      if ((times.at(-1) ?? 0) <= now - this.windowMs) this.hits.delete(key);
    }
  }
}
