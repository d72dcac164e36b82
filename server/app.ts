/**
 * The server as a value: storage, engine, HTTP, /ws and the settle timer, started and stopped together.
 * main.ts runs it from the environment; tests start it on an ephemeral port with their own clock and store.
 */
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Exchange } from 'ccxt';
import {
  createEngine,
  type Clock,
  type Engine,
  type Hasher,
  type MarketSource,
  type StoreAdapter,
} from '../engine/index';
import { AUDIT_NOTE, writeAuditNote } from './admin/db';
import { adminApi } from './admin/plugin';
import type { ChainGateway, ChainNetwork } from './chain/gateway';
import {
  connectSigner,
  connectTronSigner,
  evmGateway,
  tronGateway,
  watchDeposits,
  type DepositWatcher,
} from './chain/live';
import { watchSends, type SendReconciler } from './chain/reconciler';
import { simulatedGateway } from './chain/simulated';
import { openCluster, type Cluster } from './cluster';
import { ConfigError, UPLOAD_MAX_BYTES, type ServerConfig } from './config';
import { bridgeFeed } from './events';
import { hashPool, type HashPool } from './hash-pool';
import { StorageHealth } from './health';
import { idleGc } from './idle-gc';
import { memoryCandles, sqlCandles } from './market-data/candles';
import {
  knownVenues,
  simulatedMarketData,
  VenueMarketData,
  type GatewayLog,
  type MarketDataGateway,
} from './market-data/gateway';
import { createHttp } from './http/app';
import { Readiness } from './http/probes';
import { ServerMetrics, serveMetrics } from './metrics';
import { pgliteDriver, postgresDriver, runsAsSuperuser, type SqlDriver } from './sql-driver';
import { SqlStore } from './sql-store';
import { UploadStore } from './upload-store';
import { SocketHub } from './ws';
import { defaultConfig } from '../engine/server';

export interface StartOptions {
  config: ServerConfig;
  /** Overrides the storage the config names (tests: a store in a fresh schema). */
  storage?: StoreAdapter | 'memory';
  /** The engine's clock (tests: a manual clock); the system clock by default. */
  clock?: Clock;
  /** Extra engine constants (engine/config.ts), applied over the server's. */
  engineConfig?: Record<string, unknown>;
  /** The socket ping period (tests shorten it); 30 s by default. */
  pingEveryMs?: number;
  /** pino settings (main.ts); no logging when absent. */
  logger?: FastifyServerOptions['logger'];
  /**
   * The chain gateways that send operator-approved withdrawals, per network. When absent: demo mode uses the
   * simulated chains (server/chain/simulated.ts); a live server builds the EVM and TRON gateways of its
   * configuration (EVM_RPC_URL, TRON_API_URL, SIGNER_URL: server/chain/live.ts) and watches them for deposits,
   * or has none (approvals answer 503). Gateways given here send approvals only: nothing polls them.
   */
  gateways?: Partial<Record<ChainNetwork, ChainGateway>>;
  /** Hash pool threads; one per core (os.availableParallelism) by default. */
  hashThreads?: number;
  /** Wraps the hash pool as the engine and the back office see it (tests: a hasher that watches each hash). */
  wrapHasher?: (pool: Hasher) => Hasher;
  /** How long a storage outage lasts before it is logged at error (server/health.ts; default 10 s). */
  outageEscalationMs?: number;
  /**
   * The engine's market in live mode (tests: a venue-named source). When absent: the market-data gateway of
   * MARKET_VENUES (server/market-data), or none.
   */
  market?: MarketSource;
  /** Builds a venue's ccxt exchange for the gateway (tests: venues replayed from fixtures). */
  marketExchange?: (venue: string) => Promise<Exchange>;
}

export interface RunningServer {
  url: string;
  port: number;
  engine: Engine;
  http: Server;
  app: FastifyInstance;
  hub: SocketHub;
  /** The event bus and background-work lease shared with other instances on the same database. */
  cluster: Cluster;
  /** The gateways approvals send through (per network). */
  gateways: Partial<Record<ChainNetwork, ChainGateway>>;
  /** The deposit watcher of the configured gateways (null when none is configured). */
  watcher: DepositWatcher | null;
  /** The reconciler of uncertain broadcasts of the configured gateways (server/chain/reconciler.ts). */
  reconciler: SendReconciler | null;
  /** The worker threads that hash passwords and keys (closed with the server). */
  hashes: HashPool;
  /** Whether the storage answers, as the server's units of work find it (server/health.ts). */
  storageHealth: StorageHealth;
  /** Where prices come from: the simulator (demo), the venues' gateway (live, MARKET_VENUES), or none. */
  marketData: MarketDataGateway | null;
  /** The Prometheus metrics (server/metrics.ts). */
  metrics: ServerMetrics;
  /** Where /metrics is served (METRICS_PORT), or null when it is not. */
  metricsUrl: string | null;
  /** What /readyz answers (server/http/probes.ts). */
  readiness: Readiness;
  /**
   * Stops: /readyz answers "draining" (for DRAIN_DELAY_MS every request is still served), sockets are told to
   * reconnect (1012), no new connection is taken while the requests in flight finish (at most
   * `drainTimeoutMs`, 10 s), then the settle in progress, the engine and its storage close.
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

/** The storage the config names: PostgreSQL, PGlite in the data directory, or memory. */
export async function openStorage(config: ServerConfig): Promise<StoreAdapter | 'memory'> {
  if (config.storage === 'memory') return 'memory';
  if (config.databaseUrl)
    return SqlStore.open(await postgresDriver(config.databaseUrl, { poolSize: config.poolSize }), {
      schema: config.schema,
      groupCommit: config.groupCommit ?? undefined,
      migrate: config.migrateAtStart,
    });
  await mkdir(config.dataDir, { recursive: true });
  return SqlStore.open(await pgliteDriver(config.dataDir), {
    schema: config.schema,
    migrate: config.migrateAtStart,
  });
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  if (!config.demo && !config.walletXpub)
    throw new ConfigError('WALLET_XPUB is required when DEMO=false (docs/SERVER.md "Key custody")');
  // What the metrics read at each scrape is filled in below, as each part opens.
  const sources: ConstructorParameters<typeof ServerMetrics>[0] = {};
  const metrics = new ServerMetrics(sources);
  const onSignerCall = metrics.signerCall.bind(metrics);
  // The signer first: a wrong SIGNER_URL or SIGNER_TOKEN stops the start before anything opens.
  const signer = options.gateways ? undefined : await connectSigner(config, 5, onSignerCall);
  const tronSigner = options.gateways ? undefined : await connectTronSigner(config, 5, onSignerCall);
  const storage = options.storage ?? (await openStorage(config));
  const sqlOf = storage instanceof SqlStore ? { driver: storage.driver, schema: storage.schema } : null;
  if (storage instanceof SqlStore) {
    storage.observeReadBatches((size) => metrics.readBatches.observe(size));
    storage.observeGroupCommits({
      committed: (units) => metrics.groupCommitUnits.observe(units),
      retried: () => metrics.groupCommitRetries.inc(),
    });
  }
  if (sqlOf) {
    const { driver, schema } = sqlOf;
    sources.pool = () => driver.poolStats?.() ?? null;
    sources.jobs = () => jobDepths(driver, schema, (options.clock ?? Date).now());
  }
  const evmConfirmations = config.evm?.confirmations;
  const tronConfirmations = config.tron?.confirmations;
  // Password and key hashes run on worker threads, outside every unit of work (engine/security/hashing.ts).
  const hashes = hashPool(options.hashThreads);
  const hasher = options.wrapHasher?.(hashes) ?? hashes;
  const now = () => (options.clock ?? Date).now();
  // The gateway logs through the HTTP server's logger, which exists only later.
  let logger: GatewayLog | null = null;
  const marketLog: GatewayLog = {
    info: (obj, msg) => logger?.info(obj, msg),
    warn: (obj, msg) => logger?.warn(obj, msg),
    error: (obj, msg) => logger?.error(obj, msg),
  };
  let marketData: MarketDataGateway | null = null;
  if (config.demo) marketData = simulatedMarketData(config.seed);
  else if (config.market && !options.market) {
    if (!options.marketExchange) {
      const known = await knownVenues();
      const unknown = config.market.venues.filter((v) => !known.has(v));
      if (unknown.length > 0) {
        await hashes.close();
        throw new ConfigError(
          `MARKET_VENUES: ccxt has no WebSocket-capable exchange ${unknown.map((v) => `"${v}"`).join(', ')}`,
        );
      }
    }
    marketData = new VenueMarketData({
      config: config.market,
      candles: sqlOf ? sqlCandles(sqlOf.driver, sqlOf.schema) : memoryCandles(),
      clock: now,
      log: marketLog,
      exchange: options.marketExchange,
    });
  }
  const market = options.market ?? (marketData?.kind === 'venues' ? marketData.source : undefined);
  const engine = await createEngine({
    hasher,
    clock: options.clock,
    seed: config.seed,
    storage,
    market,
    config: {
      demo: config.demo,
      // Watch-only deposit key; without one (demo mode) the engine makes a random demo key per database.
      ...(config.walletXpub ? { walletXpub: config.walletXpub } : {}),
      ...(config.pbkdf2Iterations ? { pbkdf2Iterations: config.pbkdf2Iterations } : {}),
      // The engine's default contact is the demo's made-up address: a live server without CUSTOMER_SERVICE
      // shows none (the app says the contact is unavailable) rather than pass that one off as real.
      ...(config.customerService || !config.demo ? { customerService: config.customerService ?? '' } : {}),
      ...(config.totpEncryptionKey ? { secretBoxKey: config.totpEncryptionKey } : {}),
      ...(config.porSigningKey ? { reservesSigningKey: config.porSigningKey } : {}),
      passkeyOrigins: config.passkeyOrigins,
      // Captchas are counted per client IP here; the engine's own count only guards against a flood.
      captchaLimit: config.captchaPerIpPerMinute * 100,
      // EVM_CONFIRMATIONS, TRON_CONFIRMATIONS: the engine credits at the depth the gateway reports at.
      ...(evmConfirmations || tronConfirmations
        ? {
            networks: {
              ...defaultConfig.networks,
              ...(evmConfirmations
                ? { ERC20: { ...defaultConfig.networks.ERC20, confirmations: evmConfirmations } }
                : {}),
              ...(tronConfirmations
                ? { TRC20: { ...defaultConfig.networks.TRC20, confirmations: tronConfirmations } }
                : {}),
            },
          }
        : {}),
      ...options.engineConfig,
    },
  }).catch(async (error: unknown) => {
    await hashes.close();
    throw error;
  });

  // Feed messages travel over the cluster's bus, so a socket on any instance hears what any instance did.
  const cluster = await openCluster(storage, {
    databaseUrl: config.databaseUrl,
    onNotifyBatch: (size) => metrics.notifyBatches.observe(size),
  });
  const feed = bridgeFeed(engine, cluster.bus);
  const hub = new SocketHub(feed.engine, {
    pingEveryMs: options.pingEveryMs,
    anonymousPerIp: config.anonymousSocketsPerIp,
  });
  sources.outbox = () => cluster.bus.pending?.() ?? 0;
  sources.sockets = () => hub.stats();
  // Commands fail at once while Redis is down (the rate-limit store then counts in memory).
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: 1_000,
        lazyConnect: false,
      })
    : undefined;
  redis?.on('error', () => undefined);
  // Counting in Redis from the first request when it is up; an unreachable Redis delays start by 1 s at most.
  if (redis)
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1_000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  const readiness = new Readiness({ sql: sqlOf, redis });
  const uploadStore = sqlOf
    ? new UploadStore(sqlOf.driver, sqlOf.schema, {
        maxFileBytes: UPLOAD_MAX_BYTES,
        perIpBytes: config.uploadBytesPerIp,
        perIpWindowMs: 24 * 3_600_000,
        storageMaxBytes: config.uploadStorageMaxBytes,
      })
    : undefined;
  const app = await createHttp({
    engine,
    config,
    hub,
    redis,
    metrics,
    readiness,
    uploadStore,
    clock: options.clock,
    logger: options.logger,
    onAnswered: (path, _headers, response) => hub.sessionsMayHaveChanged(path, response),
  });
  // Outages and recoveries of the database, in the log (warn, then error while it lasts).
  const storageHealth = new StorageHealth(app.log, { escalateAfterMs: options.outageEscalationMs });
  if (storage instanceof SqlStore) storage.observeAvailability(storageHealth);
  cluster.observeAvailability(storageHealth);
  sources.storageUp = () => storageHealth.downSince === null;

  logger = app.log;
  if (marketData instanceof VenueMarketData)
    await marketData.start({ bus: cluster.marketBus, mayRun: () => cluster.mayRunBackgroundWork() });

  // The chains: given ones (tests), the demo's simulated ones, or the configured live ones, watched here.
  const evm = options.gateways || config.demo ? undefined : await evmGateway(config, signer, sqlOf);
  const tron = options.gateways || config.demo ? undefined : await tronGateway(config, tronSigner, sqlOf);
  const live = { ...(evm ? { ERC20: evm } : {}), ...(tron ? { TRC20: tron } : {}) };
  const gateways: Partial<Record<ChainNetwork, ChainGateway>> =
    options.gateways ??
    (config.demo
      ? { TRC20: simulatedGateway('TRC20', config.seed), ERC20: simulatedGateway('ERC20', config.seed) }
      : live);
  const watched = Object.values(live);
  const watcher =
    watched.length > 0
      ? watchDeposits({
          gateways: watched,
          operations: engine.operations,
          mayRun: () => cluster.mayRunBackgroundWork(),
          sql: sqlOf,
          everyMs: config.chainPollMs,
          log: app.log,
        })
      : null;
  // Withdrawals left "sending" by an unanswered broadcast, on either chain: completed, released or left, per
  // the chain (each gateway's sentStatus).
  const reconciler =
    watched.length > 0
      ? watchSends({
          gateways: watched,
          operations: engine.operations,
          mayRun: () => cluster.mayRunBackgroundWork(),
          everyMs: config.chainPollMs,
          log: app.log,
        })
      : null;
  if (!config.demo && !watcher && Object.keys(gateways).length === 0)
    app.log.warn(
      'no chain is configured (EVM_RPC_URL, TRON_API_URL): deposits are not watched, so a member paying ' +
        'their deposit address is never credited, and approved withdrawals cannot be sent ' +
        '(docs/OPERATIONS.md "The live server\'s chain")',
    );
  // PostgreSQL only: PGlite is embedded in this process, its one role is the process's own.
  if (sqlOf && config.databaseUrl && (await runsAsSuperuser(sqlOf.driver)))
    app.log.warn(
      "the database role of DATABASE_URL is a PostgreSQL superuser: it can turn off the audit log's " +
        'append-only triggers and delete audit rows; connect as a role with only the grants the server needs',
    );
  if (!config.demo && !config.customerService)
    app.log.warn(
      'CUSTOMER_SERVICE is not set: members see no support contact (getsite answers an empty customerservice)',
    );
  if (evm && !signer)
    app.log.warn('EVM gateway without SIGNER_URL: deposits are watched, approved withdrawals cannot be sent');
  if (tron && !tronSigner)
    app.log.warn(
      'TRON gateway without SIGNER_URL: deposits are watched, approved withdrawals cannot be sent',
    );

  // The operator API (server/admin, docs/OPERATIONS.md): its own tables in the same SQL schema. Its
  // decisions' audit rows are written by the store in the decision's own transaction.
  if (storage instanceof SqlStore) storage.writeNotesWith(AUDIT_NOTE, writeAuditNote);
  await app.register(adminApi, {
    engine,
    sql: sqlOf,
    clock: options.clock ?? { now: () => Date.now() },
    pbkdf2Iterations: config.pbkdf2Iterations ?? defaultConfig.pbkdf2Iterations,
    hasher,
    gateways,
    loginPerIpPerMinute: config.loginPerIpPerMinute,
    market: {
      mode: config.demo ? 'simulated' : market ? 'venues' : 'none',
      venueStates: (symbol) => marketData?.venueStates(symbol) ?? [],
    },
  });

  // Settles never overlap: a slow one (a long catch-up after downtime) makes the next ticks skip. With
  // several instances on one database only the lease holder settles (server/cluster.ts).
  let settling: Promise<void> | null = null;
  const settle = () => {
    settling ??= cluster
      .mayRunBackgroundWork()
      .then((leader) => (leader ? engine.settle() : undefined))
      .catch((error: unknown) => app.log.error({ err: error }, 'settle failed'))
      .finally(() => {
        settling = null;
      });
  };
  const timer = config.settleEveryMs > 0 ? setInterval(settle, config.settleEveryMs) : undefined;

  await app.listen({ port: config.port, host: config.host });
  const http = app.server;
  // One major collection once the instance falls idle after work (server/idle-gc.ts); a balancer's probes
  // are not work.
  const idle = idleGc({
    everyMs: config.idleGcMs,
    onCollect: ({ before, after, ms }) =>
      app.log.debug({ rssBefore: before, rssAfter: after, ms: Math.round(ms) }, 'idle: heap collected'),
    onError: (error) =>
      app.log.warn({ err: error }, 'idle: the heap could not be collected; no more idle collections'),
  });
  http.on('request', (request: IncomingMessage) => {
    if (request.url !== '/livez' && request.url !== '/readyz') idle.request();
  });
  const { port } = http.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // A taken METRICS_PORT does not stop the members' server: the scrape fails (Prometheus shows the target
  // down) and the log says why.
  const metricsServer =
    config.metricsPort === null
      ? null
      : await serveMetrics(metrics, config.host, config.metricsPort).catch((error: unknown) => {
          app.log.warn(
            { metricsPort: config.metricsPort, err: (error as Error).message },
            'metrics not served: METRICS_PORT cannot be bound (set another port, or METRICS_PORT=off)',
          );
          return null;
        });

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    port,
    engine,
    http,
    app,
    hub,
    cluster,
    gateways,
    watcher,
    reconciler,
    hashes,
    storageHealth,
    marketData,
    metrics,
    metricsUrl: metricsServer?.url ?? null,
    readiness,
    close: (closeOptions = {}) =>
      (closing ??= (async () => {
        // The balancer sees "draining" at its next check and sends new requests elsewhere meanwhile.
        readiness.drain();
        if (config.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
        clearInterval(timer);
        idle.stop();
        await marketData?.close();
        await watcher?.close();
        await reconciler?.close();
        await hub.close();
        await drainHttp(app, closeOptions.drainTimeoutMs ?? 10_000);
        await metricsServer?.close();
        await settling;
        feed.close();
        await cluster.close();
        await engine.close();
        await hashes.close();
        redis?.disconnect();
      })()),
  };
}

/**
 * Closes the HTTP server: no new connection, idle keep-alive connections closed, requests in flight answered
 * (each connection closed after its answer); whatever is still open after `timeoutMs` is cut.
 */
async function drainHttp(app: FastifyInstance, timeoutMs: number): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}

/** The job queue's depth for the metrics: due now, scheduled later, dead; null when the database is slow. */
async function jobDepths(
  driver: SqlDriver,
  schema: string,
  now: number,
): Promise<{ due: number; scheduled: number; dead: number } | null> {
  let timer: NodeJS.Timeout | undefined;
  const read = driver.query<{ due: string; scheduled: string; dead: string }>(
    `SELECT count(*) FILTER (WHERE due_at <= $1)::text AS due, count(*) FILTER (WHERE due_at > $1)::text AS scheduled, ` +
      `(SELECT count(*) FROM ${schema}.dead_jobs)::text AS dead FROM ${schema}.jobs`,
    [now],
  );
  try {
    const { rows } = await Promise.race([
      read,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), 1_000);
      }),
    ]);
    const row = rows[0];
    return row ? { due: Number(row.due), scheduled: Number(row.scheduled), dead: Number(row.dead) } : null;
  } catch {
    read.catch(() => undefined);
    return null;
  } finally {
    clearTimeout(timer);
  }
}
