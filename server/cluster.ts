/**
 * What several server instances on one database share besides their tables: the event bus (server/events.ts)
 * and the background-work lease (`mayRunBackgroundWork()`, one instance at a time, a row in `strata_leases`
 * renewed every settle tick and taken over once expired). The lease only saves work: each job and hook
 * re-reads its own row in its unit of work. Memory storage and PGlite are one process: a local bus, and
 * background work always runs. docs/SERVER.md "Storage".
 */
import { randomUUID } from 'node:crypto';
import type { StoreAdapter } from '../engine/index';
import { localBus, postgresBus, type EventBus } from './events';
import type { AvailabilityObserver } from './health';
import { isConnectionLoss, SqlStore } from './sql-store';

export interface Cluster {
  bus: EventBus;
  /**
   * The market-data gateway's bus (server/market-data): its snapshots reach every instance's market, never a
   * member's socket.
   */
  marketBus: EventBus;
  /** True when this instance holds (or just took) the background-work lease. */
  mayRunBackgroundWork(): Promise<boolean>;
  /**
   * Reports whether the lease's statement reached the database (server/health.ts): on PostgreSQL it runs at
   * every settle tick, so an outage and its end are seen even when no member calls.
   */
  observeAvailability(observer: AvailabilityObserver): void;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** PostgreSQL URL (the bus listens on its own connection); without it the cluster is this process. */
  databaseUrl?: string;
  /** How long a lease lasts without renewal (default 10 s). */
  leaseMs?: number;
  /** Told the size of each NOTIFY batch of the member feed's bus (server/metrics.ts). */
  onNotifyBatch?: (size: number) => void;
}

export async function openCluster(
  storage: StoreAdapter | 'memory',
  options: ClusterOptions,
): Promise<Cluster> {
  if (!(storage instanceof SqlStore) || storage.driver.kind !== 'postgres' || !options.databaseUrl) {
    return {
      bus: localBus(),
      mayRunBackgroundWork: async () => true,
      observeAvailability: () => undefined,
      marketBus: localBus(),
      close: async () => undefined,
    };
  }
  const { driver, schema } = storage;
  const bus = await postgresBus({ url: options.databaseUrl, schema, driver, onBatch: options.onNotifyBatch });
  const marketBus = await postgresBus({ url: options.databaseUrl, schema, driver, channel: 'strata_market' });
  const holder = randomUUID();
  const leaseMs = options.leaseMs ?? 10_000;
  let observer: AvailabilityObserver | null = null;
  return {
    bus,
    observeAvailability: (o) => {
      observer = o;
    },
    marketBus,
    mayRunBackgroundWork: async () => {
      try {
        const { rows } = await driver.query(
          `INSERT INTO ${schema}.strata_leases AS l (name, holder, expires_at) ` +
            `VALUES ('settle', $1, now() + $2 * interval '1 millisecond') ` +
            `ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at ` +
            `WHERE l.holder = EXCLUDED.holder OR l.expires_at < now() RETURNING holder`,
          [holder, leaseMs],
        );
        observer?.succeeded();
        return rows.length > 0;
      } catch (error) {
        if (isConnectionLoss(error)) observer?.failed(error);
        return false;
      }
    },
    close: async () => {
      await driver
        .query(`DELETE FROM ${schema}.strata_leases WHERE name = 'settle' AND holder = $1`, [holder])
        .catch(() => undefined);
      await bus.close();
      await marketBus.close();
    },
  };
}
