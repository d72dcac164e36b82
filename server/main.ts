/**
 * The server process: settings from the environment, pino logs on stdout, the chains and signer when
 * configured (server/chain/live.ts), and a clean stop on SIGINT/SIGTERM (draining, sockets closed with 1012,
 * requests and settle finish, the lease handed back), then exit 0. Refuses to start live without
 * WALLET_XPUB, or with a private key in its environment (keys belong to the signer). `npm run server` is
 * development (`--dev`), `npm run server:start` the compiled build. docs/SERVER.md "Running live mode" and
 * "Key custody", docs/OPERATIONS.md "Stopping an instance (SIGTERM, SIGINT)".
 */
import { startServer } from './app';
import { EvmGateway } from './chain/evm';
import { ConfigError, configFromEnv, type ServerConfig } from './config';
import { REDACT, requestIdMixin } from './http/request-log';
import { SchemaBehind } from './sql-store';

const dev = process.argv.includes('--dev');

let config: ServerConfig;
try {
  config = configFromEnv(process.env, { defaultDemo: dev, requireKey: true });
} catch (error) {
  console.error(`Strata server not started: ${(error as Error).message}`);
  process.exit(error instanceof ConfigError ? 1 : 2);
}

const server = await startServer({
  config,
  logger: { level: config.logLevel, redact: { paths: REDACT, censor: '[Redacted]' }, mixin: requestIdMixin },
}).catch((error: unknown) => {
  // MIGRATE_AT_START=false and a schema behind this build: one line naming the migrations and the command.
  if (!(error instanceof SchemaBehind)) throw error;
  console.error(`Strata server not started: ${error.message}`);
  process.exit(1);
});
const log = server.app.log;
const storage =
  config.storage === 'memory' ? 'memory' : config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
/** Says that a chain gateway runs, and with which settings (`endpoint`: its node's URL, never an API key). */
function logGateway(
  chain: 'EVM' | 'TRON',
  endpoint: { rpcUrl: string } | { apiUrl: string },
  settings: { token: string; confirmations: number; hotWallet: string | null | undefined },
): void {
  log.info(
    {
      ...endpoint,
      token: settings.token,
      confirmations: settings.confirmations,
      signer: config.signer?.url ?? null,
      hotWallet: settings.hotWallet,
      pollEveryMs: config.chainPollMs,
    },
    `${chain} chain gateway: deposits watched, approved withdrawals sent through the signer`,
  );
}
const evm = server.gateways.ERC20;
if (config.evm && evm)
  logGateway(
    'EVM',
    { rpcUrl: config.evm.rpcUrl },
    {
      token: config.evm.token,
      confirmations: evm.confirmations,
      hotWallet: evm instanceof EvmGateway ? evm.hotWalletAddress : null,
    },
  );
const tron = server.gateways.TRC20;
// Never the API key (TRON_API_KEY).
if (config.tron && tron)
  logGateway(
    'TRON',
    { apiUrl: config.tron.apiUrl },
    { token: config.tron.token, confirmations: tron.confirmations, hotWallet: config.tron.hotWallet ?? null },
  );
log.info(
  { url: server.url, storage, demo: config.demo, metrics: server.metricsUrl },
  config.demo
    ? `Strata server on ${server.url} (storage: ${storage}); DEMO: deposit addresses are demo addresses`
    : `Strata server on ${server.url} (storage: ${storage}); live, watch-only deposit key`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info(
      { signal, drainDelayMs: config.drainDelayMs, sockets: server.hub.size },
      'stopping: /readyz answers draining, sockets are told to reconnect, requests in flight finish',
    );
    // A stop that hangs (a stuck connection) must not keep the process forever.
    setTimeout(() => process.exit(1), config.drainDelayMs + 15_000).unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
