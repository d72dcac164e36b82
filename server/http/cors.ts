/**
 * CORS (@fastify/cors) for the CORS_ORIGINS allow-list: '*' answers the literal wildcard; otherwise only a
 * listed origin is granted, never reflected. A preflight from another origin is answered 204 with no grant.
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const corsForOrigins = fp<{ origins: readonly string[] }>(
  async (app: FastifyInstance, { origins }) => {
    await app.register(cors, {
      origin: origins.includes('*')
        ? '*'
        : (origin, cb) => cb(null, origin !== undefined && origins.includes(origin)),
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'UserId', 'Content-Type', 'Idempotency-Key', 'X-Device-Id'],
      exposedHeaders: ['X-Request-Id'],
      maxAge: 600,
      strictPreflight: false,
    });
  },
  { name: 'strata-cors' },
);
