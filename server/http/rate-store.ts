/**
 * The counters behind @fastify/rate-limit, through its documented `store` interface (incr, read, child):
 * in Redis when REDIS_URL is set, so every instance behind the load balancer counts the same client
 * together; in this process's memory otherwise. When Redis does not answer, a call is counted in memory
 * instead (limits then hold per instance) rather than failing the request or letting it through uncounted:
 * Redis down never crashes and never lifts a limit. Fixed windows: the first hit starts a window of
 * `timeWindow` ms, the counter resets when it ends.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

interface Count {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result?: Count) => void;
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];

export interface FallbackState {
  /** Calls answered from memory because Redis failed (logged once per outage by the caller). */
  fallbacks: number;
  /** Redis failed on the last call; `onFallback` is told once per outage, not once per request. */
  down?: boolean;
  onFallback?: (error: Error) => void;
}

/** Keys counted in memory at most; the oldest window is dropped first beyond it. */
const MEMORY_KEYS = 10_000;

/** One route's counters in this process. */
class MemoryCounts {
  private readonly windows = new Map<string, { current: number; endsAt: number }>();

  incr(key: string, timeWindow: number): Count {
    const now = Date.now();
    const open = this.windows.get(key);
    if (open && open.endsAt > now) {
      open.current++;
      return { current: open.current, ttl: open.endsAt - now };
    }
    this.windows.delete(key);
    if (this.windows.size >= MEMORY_KEYS) {
      const oldest = this.windows.keys().next();
      if (!oldest.done) this.windows.delete(oldest.value);
    }
    this.windows.set(key, { current: 1, endsAt: now + timeWindow });
    return { current: 1, ttl: timeWindow };
  }

  read(key: string): Count {
    const open = this.windows.get(key);
    const now = Date.now();
    return open && open.endsAt > now
      ? { current: open.current, ttl: open.endsAt - now }
      : { current: 0, ttl: 0 };
  }
}

/** INCR, and a window's expiry on its first hit (or when an expiry was lost): [count, ms left]. */
const INCR_LUA = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

const READ_LUA = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}`;

class Counts implements FastifyRateLimitStore {
  private readonly memory = new MemoryCounts();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly prefix: string,
    private readonly state: FallbackState,
  ) {}

  private run(script: string, key: string, cb: Callback, local: () => Count, timeWindow: number): void {
    if (!this.redis) {
      cb(null, local());
      return;
    }
    this.redis.eval(script, 1, this.prefix + key, timeWindow).then(
      (reply) => {
        this.state.down = false;
        const [current, ttl] = reply as [number, number];
        cb(null, { current: Number(current), ttl: Number(ttl) });
      },
      (error: unknown) => {
        this.state.fallbacks++;
        if (!this.state.down) this.state.onFallback?.(error as Error);
        this.state.down = true;
        cb(null, local());
      },
    );
  }

  incr(key: string, cb: Callback, timeWindow: number): void {
    this.run(INCR_LUA, key, cb, () => this.memory.incr(key, timeWindow), timeWindow);
  }

  read(key: string, cb: Callback, timeWindow: number): void {
    this.run(READ_LUA, key, cb, () => this.memory.read(key), timeWindow);
  }

  child(routeOptions: RouteOptions): FastifyRateLimitStore {
    // Hooks made by app.rateLimit() have no route: their counters differ by key (keyGenerator).
    // routeInfo: documented in the plugin's README ("store"), absent from its types.
    const { routeInfo } = routeOptions as { routeInfo?: { method?: string; url?: string } };
    const { method = '', url = '' } = routeInfo ?? {};
    return new Counts(this.redis, `${this.prefix}${method}${url}-`, this.state);
  }
}

/**
 * A store class for the plugin's `store` option: Redis (when given) with a memory fallback. Keys are
 * `<prefix><method><url>-<client key>`, one counter per route and client.
 */
export function rateCounters(
  redis: Redis | undefined,
  state: FallbackState,
  prefix = 'strata-rl-',
): FastifyRateLimitStoreCtor {
  return class extends Counts {
    constructor() {
      super(redis, prefix, state);
    }
  };
}
