/**
 * The server process (docs/SERVER.md, docs/DEPLOY.md): settings from the environment, pino logs on stdout
 * (each line of a request with its id), and a clean stop on SIGINT and SIGTERM (/readyz answers draining for
 * DRAIN_DELAY_MS, sockets are closed with 1012 so the app reconnects, no new connections while the requests in
 * flight finish, the settle in progress finishes, the engine and its storage close, the background-work lease
 * is handed back), then exit 0. A live server (DEMO=false) without WALLET_XPUB exits 1 with a
 * message naming it.
 *
 * With EVM_RPC_URL and/or TRON_API_URL (and SIGNER_URL) it also watches an EVM chain and/or TRON for deposits
 * and sends approved withdrawals through the signer process (server/chain/live.ts, docs/OPERATIONS.md "Chain gateway"). A private key in
 * its environment stops it (exit 1): keys belong to the signer (`npm run signer`).
 *
 * `npm run server` (development: `node --import tsx`, one process, demo keys unless DEMO=false) passes
 * `--dev`; `npm run server:start` runs the compiled dist-server/main.js (production: live unless DEMO=true).
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
