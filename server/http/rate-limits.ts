/**
 * Per-client limits (@fastify/rate-limit, `global: false`: only the routes that ask are counted), in Redis
 * when the server has it (rate-store.ts). A refused call is an error with status 429, which the error
 * handler answers as the envelope code 429.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { rateCounters, type FallbackState } from './rate-store';

export interface RateLimitOptions {
  redis?: Redis;
  /** Prefix of the Redis keys (REDIS_PREFIX). */
  prefix?: string;
}

export const rateLimits = fp<RateLimitOptions>(
  async (app: FastifyInstance, { redis, prefix }) => {
    const fallback: FallbackState = {
      fallbacks: 0,
      onFallback: (error) =>
        app.log.warn({ err: error.message }, 'rate limits: Redis failed, counting in memory'),
    };
    await app.register(rateLimit, {
      global: false,
      store: rateCounters(redis, fallback, prefix),
      errorResponseBuilder: (_req, context) =>
        Object.assign(new Error(`Rate limit exceeded, retry in ${context.after}`), { statusCode: 429 }),
    });
  },
  { name: 'strata-rate-limits' },
);
