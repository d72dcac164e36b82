/**
 * Liveness and readiness for load balancers and orchestrators: `GET /livez` while the process answers,
 * `GET /readyz` 200 when the storage answers and every migration has run, 503 otherwise and while draining.
 * Plain HTTP statuses, not the envelope; Redis is reported but never makes an instance not ready
 * (docs/DECISIONS.md "Server"). Answers and checks: docs/OPERATIONS.md "Probes (server/http/probes.ts)",
 * docs/API.md "Operational endpoints". Not logged per request; outages are logged by server/health.ts.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { MIGRATIONS } from '../sql-schema';
import type { SqlDriver } from '../sql-driver';

export type CheckResult = 'ok' | 'unreachable' | 'pending migrations' | 'not configured';

export interface ReadinessReport {
  status: 'ready' | 'not ready' | 'draining';
  checks: { storage: CheckResult; migrations: CheckResult; redis: CheckResult };
}

export interface ReadinessDeps {
  /** The SQL storage (PostgreSQL or PGlite); null for memory storage, which is always reachable. */
  sql: { driver: SqlDriver; schema: string } | null;
  redis?: Redis;
  /** How long each check may take before it counts as failed (default 2 s). */
  timeoutMs?: number;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class Readiness {
  private draining = false;
  /** Once every migration has been seen applied it stays so (migrations are never undone). */
  private migrated = false;
  private readonly timeoutMs: number;

  constructor(private readonly deps: ReadinessDeps) {
    this.timeoutMs = deps.timeoutMs ?? 2_000;
  }

  /** From now on /readyz answers 503 "draining" (the server is stopping). */
  drain(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async check(): Promise<ReadinessReport> {
    const [storage, redis] = await Promise.all([this.storage(), this.redis()]);
    const checks = {
      storage: storage === 'unreachable' ? 'unreachable' : 'ok',
      migrations: storage === 'unreachable' ? 'unreachable' : storage,
      redis,
    } satisfies ReadinessReport['checks'];
    // Redis is reported, not required: the limits fall back to per-instance counters (see above).
    const ok = checks.storage === 'ok' && checks.migrations === 'ok';
    return { status: this.draining ? 'draining' : ok ? 'ready' : 'not ready', checks };
  }

  /** One statement: reaches the database and reads which migrations ran. */
  private async storage(): Promise<'ok' | 'unreachable' | 'pending migrations'> {
    const sql = this.deps.sql;
    if (!sql) return 'ok';
    let names: Set<string>;
    try {
      const { rows } = await within(
        sql.driver.query<{ name: string }>(`SELECT name FROM ${sql.schema}.strata_migrations`),
        this.timeoutMs,
      );
      names = new Set(rows.map((r) => r.name));
    } catch {
      return 'unreachable';
    }
    if (!this.migrated) this.migrated = MIGRATIONS.every((m) => names.has(m.name));
    return this.migrated ? 'ok' : 'pending migrations';
  }

  private async redis(): Promise<CheckResult> {
    const redis = this.deps.redis;
    if (!redis) return 'not configured';
    try {
      await within(redis.ping(), this.timeoutMs);
      return 'ok';
    } catch {
      return 'unreachable';
    }
  }
}

export const probes = fp(
  async (app: FastifyInstance, options: { readiness: Readiness }) => {
    // logLevel warn: the request log's one line per answer (info for a 503) stays out of the log.
    app.get('/livez', { logLevel: 'warn' }, async (_request, reply) =>
      reply.code(200).header('Cache-Control', 'no-store').send({ status: 'live' }),
    );
    app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
      const report = await options.readiness.check();
      return reply
        .code(report.status === 'ready' ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send(report);
    });
  },
  { name: 'strata-probes' },
);
