/**
 * The server as a value: storage, engine, HTTP, /ws and the settle timer, started and stopped together.
 * main.ts runs it from the environment; tests start it on an ephemeral port with their own clock and store.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, type Clock, type Engine, type StoreAdapter } from '../engine/index';
import { openCluster, type Cluster } from './cluster';
import type { ServerConfig } from './config';
import { bridgeFeed } from './events';
import { createHttpHandler } from './http';
import { pgliteDriver, postgresDriver } from './sql-driver';
import { SqlStore } from './sql-store';
import { SocketHub } from './ws';

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
}

export interface RunningServer {
  url: string;
  port: number;
  engine: Engine;
  http: Server;
  hub: SocketHub;
  /** The event bus and background-work lease shared with other instances on the same database. */
  cluster: Cluster;
  /** Stops taking work, waits for the settle in progress, closes sockets, the engine and its storage. */
  close(): Promise<void>;
}

/** The storage the config names: PostgreSQL, PGlite in the data directory, or memory. */
export async function openStorage(config: ServerConfig): Promise<StoreAdapter | 'memory'> {
  if (config.storage === 'memory') return 'memory';
  if (config.databaseUrl)
    return SqlStore.open(await postgresDriver(config.databaseUrl, { poolSize: config.poolSize }), {
      schema: config.schema,
    });
  await mkdir(config.dataDir, { recursive: true });
  return SqlStore.open(await pgliteDriver(config.dataDir), { schema: config.schema });
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  const storage = options.storage ?? (await openStorage(config));
  const engine = await createEngine({
    clock: options.clock,
    seed: config.seed,
    storage,
    config: {
      demo: config.demo,
      ...(config.pbkdf2Iterations ? { pbkdf2Iterations: config.pbkdf2Iterations } : {}),
      ...(config.customerService ? { customerService: config.customerService } : {}),
      // Captchas are counted per client IP here; the engine's own count only guards against a flood.
      captchaLimit: config.captchaPerIpPerMinute * 100,
      ...options.engineConfig,
    },
  });

  // Feed messages travel over the cluster's bus, so a socket on any instance hears what any instance did.
  const cluster = await openCluster(storage, { databaseUrl: config.databaseUrl });
  const feed = bridgeFeed(engine, cluster.bus);
  const hub = new SocketHub(feed.engine, { pingEveryMs: options.pingEveryMs });
  const http = createServer(
    createHttpHandler({
      engine,
      config,
      onAnswered: (path, _headers, response) => hub.sessionsMayHaveChanged(path, response),
    }),
  );
  // Receiving a 5 MiB upload over a slow mobile link takes longer than the engine may: only the call itself
  // is held to TIMEOUT_MS.
  http.requestTimeout = Math.max(config.timeoutMs, 120_000);
  http.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  hub.attach(http);

  // Settles never overlap: a slow one (a long catch-up after downtime) makes the next ticks skip. With
  // several instances on one database only the lease holder settles (server/cluster.ts).
  let settling: Promise<void> | null = null;
  const settle = () => {
    settling ??= cluster
      .mayRunBackgroundWork()
      .then((leader) => (leader ? engine.settle() : undefined))
      .catch((error: unknown) => console.error('settle failed', error))
      .finally(() => {
        settling = null;
      });
  };
  const timer = config.settleEveryMs > 0 ? setInterval(settle, config.settleEveryMs) : undefined;

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;

  return {
    url: `http://${host}:${port}`,
    port,
    engine,
    http,
    hub,
    cluster,
    close: async () => {
      clearInterval(timer);
      await hub.close();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
      await settling;
      feed.close();
      await cluster.close();
      await engine.close();
    },
  };
}
