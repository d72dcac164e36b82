/**
 * The server's Prometheus metrics (prom-client, in a registry of the server's own), served at /metrics on
 * METRICS_PORT (default 9464), never on the members' port (`serveMetrics`): requests, latency, refusals,
 * signer calls and batch sizes counted as they happen; the pool, the bus's outbox, the job queue, WebSocket
 * connections and the storage read at each scrape (`gauges`); Node's process metrics. The list:
 * docs/OPERATIONS.md "Metrics (server/metrics.ts, prom-client)".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the scrape-time gauges read; each part is optional (memory storage has no pool, no job table). */
export interface MetricSources {
  /** The PostgreSQL pool (server/sql-driver.ts): connections open, idle, and callers waiting for one. */
  pool?: () => { total: number; idle: number; waiting: number; max: number } | null;
  /** Feed messages waiting for their NOTIFY (server/events.ts). */
  outbox?: () => number;
  /** Jobs due now, scheduled later, and dead (a bounded read with its own timeout; null when unknown). */
  jobs?: () => Promise<{ due: number; scheduled: number; dead: number } | null>;
  /** Open /ws sockets, by whether they are authenticated as a member. */
  sockets?: () => { member: number; anonymous: number };
  /** False while the storage is known to be unreachable (server/health.ts). */
  storageUp?: () => boolean;
}

/** Latency buckets (seconds): a unit of work is a few ms, TIMEOUT_MS is 12 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 12];
const BATCH_BUCKETS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128];

export class ServerMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'strata_http_requests_total',
    help: 'HTTP requests answered, by method, route template and HTTP status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'strata_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: 'strata_api_refusals_total',
    help: 'Answers whose envelope code is not 0 (docs/API.md catalogue), by route template and code',
    labelNames: ['route', 'code'] as const,
    registers: [this.registry],
  });
  readonly signerCalls = new Counter({
    name: 'strata_signer_calls_total',
    help: 'Calls to the signer process, by call and outcome (ok, refused, unreachable)',
    labelNames: ['call', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly signerDuration = new Histogram({
    name: 'strata_signer_call_duration_seconds',
    help: 'Time the signer process took to answer, by call',
    labelNames: ['call'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly readBatches = new Histogram({
    name: 'strata_db_read_batch_size',
    help: 'Reads the SQL store sends as one batch (one round trip) within a unit of work',
    buckets: BATCH_BUCKETS,
    registers: [this.registry],
  });
  readonly groupCommitUnits = new Histogram({
    name: 'strata_db_group_commit_units',
    help: 'Units of work committed together in one PostgreSQL transaction (group commit)',
    buckets: BATCH_BUCKETS,
    registers: [this.registry],
  });
  readonly groupCommitRetries = new Counter({
    name: 'strata_db_group_commit_retries_total',
    help: 'Group-commit batches run again after a conflict with another transaction or a lost connection',
    registers: [this.registry],
  });
  readonly notifyBatches = new Histogram({
    name: 'strata_feed_notify_batch_size',
    help: 'Feed messages sent to the other instances in one NOTIFY statement',
    buckets: BATCH_BUCKETS,
    registers: [this.registry],
  });

  constructor(sources: MetricSources = {}) {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    new Gauge({
      name: 'strata_db_pool_connections',
      help: 'PostgreSQL pool connections: open (total), idle, callers waiting for one, and the pool size (max)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const pool = sources.pool?.();
        if (!pool) return;
        for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, pool[state]);
      },
    });
    new Gauge({
      name: 'strata_feed_outbox_messages',
      help: 'Feed messages published on this instance and not yet sent to the other instances',
      registers,
      collect() {
        this.set(sources.outbox?.() ?? 0);
      },
    });
    new Gauge({
      name: 'strata_jobs',
      help: 'The job queue: jobs due now, jobs scheduled for later, and dead jobs (failed for good)',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const jobs = await sources.jobs?.();
        if (!jobs) return;
        for (const state of ['due', 'scheduled', 'dead'] as const) this.set({ state }, jobs[state]);
      },
    });
    new Gauge({
      name: 'strata_ws_connections',
      help: 'Open /ws sockets, authenticated as a member or anonymous',
      labelNames: ['auth'] as const,
      registers,
      collect() {
        const sockets = sources.sockets?.() ?? { member: 0, anonymous: 0 };
        this.set({ auth: 'member' }, sockets.member);
        this.set({ auth: 'anonymous' }, sockets.anonymous);
      },
    });
    new Gauge({
      name: 'strata_storage_up',
      help: '1 while the storage answers, 0 during an outage (as the units of work find it)',
      registers,
      collect() {
        this.set(sources.storageUp?.() === false ? 0 : 1);
      },
    });
  }

  /** Counts one signer call (server/signer/client.ts). */
  signerCall(call: string, outcome: 'ok' | 'refused' | 'unreachable', seconds: number): void {
    this.signerCalls.inc({ call, outcome });
    this.signerDuration.observe({ call }, seconds);
  }
}

/** Serves `GET /metrics` (Prometheus text format) on `port` of `host`; 404 for anything else. */
export async function serveMetrics(
  metrics: ServerMetrics,
  host: string,
  port: number,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text);
      },
      () => {
        response.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
