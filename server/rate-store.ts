/**
 * The rate-limit counters of @fastify/rate-limit: in Redis when REDIS_URL is set, so every instance behind
 * the load balancer counts the same client together; in this process's memory otherwise. When Redis does
 * not answer, the counters fall back to memory for that call (limits then hold per instance) instead of
 * failing the request or letting it through uncounted: Redis down never crashes and never lifts a limit.
 */
import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

interface Counter {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result?: Counter) => void;

/** The plugin's store contract (its README, "store"): incr, read and a per-route child. */
export interface RateStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): RateStore;
}

type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];

type StoreClass = new (...args: unknown[]) => RateStore;
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreClass;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreClass;

export interface FallbackState {
  /** Calls answered from memory because Redis failed (logged once per outage by the caller). */
  fallbacks: number;
  /** Redis failed on the last call; `onFallback` is told once per outage, not once per request. */
  down?: boolean;
  onFallback?: (error: Error) => void;
}

class FallbackStore implements RateStore {
  constructor(
    private readonly redis: RateStore,
    private readonly local: RateStore,
    private readonly state: FallbackState,
  ) {}

  private run(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
    this.redis[method](
      key,
      (error, result) => {
        if (!error) {
          this.state.down = false;
          cb(null, result);
          return;
        }
        this.state.fallbacks++;
        if (!this.state.down) this.state.onFallback?.(error);
        this.state.down = true;
        this.local[method](key, cb, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.run('incr', key, cb, timeWindow, max);
  }

  read(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.run('read', key, cb, timeWindow, max);
  }

  child(routeOptions: RouteOptions): RateStore {
    return new FallbackStore(this.redis.child(routeOptions), this.local.child(routeOptions), this.state);
  }
}

/** A store class for the plugin's `store` option: Redis with a memory fallback. */
export function redisWithFallback(
  redis: Redis,
  state: FallbackState,
  nameSpace = 'strata-rl-',
): FastifyRateLimitStoreCtor {
  return class {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const store = new FallbackStore(
        new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace),
        new LocalStore(params.continueExceeding, params.exponentialBackoff, 10_000),
        state,
      );
      return store;
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
