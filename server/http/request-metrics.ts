/**
 * Each answered request counted on the server's metrics (server/metrics.ts): by method, route template (never
 * the raw URL, whose ids and typos would make a label per request) and status, its latency, and, when its
 * envelope carries a refusal, the code (envelope.ts `replyCodes`).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerMetrics } from '../metrics';
import { replyCodes } from './envelope';

export const requestMetrics = fp(
  async (app: FastifyInstance, options: { metrics: ServerMetrics }) => {
    const { metrics } = options;
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const method = request.method;
      metrics.httpRequests.inc({ method, route, status: String(reply.statusCode) });
      metrics.httpDuration.observe({ method, route }, reply.elapsedTime / 1000);
      const code = replyCodes.get(reply);
      if (code !== undefined && code !== 0) metrics.refusals.inc({ route, code: String(code) });
      done();
    });
  },
  { name: 'strata-request-metrics' },
);
