/**
 * The live server's chains, from its configuration: `connectSigner` (before anything else opens, so a wrong
 * URL or secret stops the start), `evmGateway` and `tronGateway` (each resuming its deposit scan where the
 * last run left it, kept in `admin_settings`), and the deposits watcher (every `CHAIN_POLL_MS`, on the
 * instance holding the background-work lease, one round per gateway; rounds never overlap). Settings and scan
 * positions: docs/OPERATIONS.md "The live server's chain (server/chain/live.ts)".
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Address } from 'viem';
import type { EngineOperations } from '../../engine/index';
import { ConfigError, type ServerConfig } from '../config';
import type { SqlDriver } from '../sql-driver';
import { RemoteSigner, type RemoteSignerOptions } from '../signer/client';
import { RemoteTronSigner } from '../signer/tron-client';
import { EvmGateway } from './evm';
import type { ChainGateway, ChainNetwork } from './gateway';
import { sqlSendLock } from './send-lock';
import { TronGateway } from './tron';
import { periodicRounds } from './rounds';
import { watchRound } from './watcher';

/** Tries the signer a few times (it may be starting alongside); a ConfigError naming it otherwise. */
export async function connectSigner(
  config: ServerConfig,
  attempts = 5,
  onCall?: RemoteSignerOptions['onCall'],
): Promise<RemoteSigner | undefined> {
  const signer = config.signer;
  if (!signer || !config.evm) return undefined;
  return retrying(
    signer.url,
    () =>
      RemoteSigner.connect({
        url: signer.url,
        secret: signer.secret,
        expectedAddress: config.evm?.hotWallet,
        timeoutMs: 3_000,
        onCall,
      }),
    attempts,
  );
}

/** The signer's TRON side (SIGNER_TRON_KEY there), when TRON_API_URL and SIGNER_URL are set. */
export async function connectTronSigner(
  config: ServerConfig,
  attempts = 5,
  onCall?: RemoteSignerOptions['onCall'],
): Promise<RemoteTronSigner | undefined> {
  const signer = config.signer;
  if (!signer || !config.tron) return undefined;
  return retrying(
    signer.url,
    () =>
      RemoteTronSigner.connect({
        url: signer.url,
        secret: signer.secret,
        expectedAddress: config.tron?.hotWallet,
        timeoutMs: 3_000,
        onCall,
      }),
    attempts,
  );
}

async function retrying<T>(url: string, connect: () => Promise<T>, attempts: number): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await connect();
    } catch (error) {
      last = error;
      // A refusal (wrong secret, wrong address) will not change by waiting.
      if (!/unreachable/.test((error as Error).message)) break;
      if (attempt + 1 < attempts) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  throw new ConfigError(`SIGNER_URL ${url}: ${(last as Error).message}`);
}

/** The `admin_settings` key of a network's scan position: a block (EVM) or a block time in ms (TRON). */
const cursorKey = (network: ChainNetwork) =>
  `chain.${network}.${network === 'TRC20' ? 'since' : 'nextBlock'}`;

/** Where the gateway's next poll starts, to be saved after a round. */
function cursorOf(gateway: ChainGateway): bigint | undefined {
  if (gateway instanceof EvmGateway) return gateway.nextScanBlock;
  if (gateway instanceof TronGateway && gateway.nextSince !== undefined) return BigInt(gateway.nextSince);
  return undefined;
}

export interface ChainSql {
  driver: SqlDriver;
  schema: string;
}

async function savedCursor(sql: ChainSql | null, network: ChainNetwork): Promise<bigint | undefined> {
  if (!sql) return undefined;
  const { rows } = await sql.driver.query<{ value: string }>(
    `SELECT value FROM ${sql.schema}.admin_settings WHERE key = $1`,
    [cursorKey(network)],
  );
  const value = rows[0]?.value;
  return value && /^[0-9]+$/.test(value) ? BigInt(value) : undefined;
}

async function saveCursor(sql: ChainSql, network: ChainNetwork, block: bigint): Promise<void> {
  await sql.driver.query(
    `INSERT INTO ${sql.schema}.admin_settings (key, value) VALUES ($1, $2) ` +
      `ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [cursorKey(network), block.toString()],
  );
}

/** The EVM gateway of the configuration, or undefined when EVM_RPC_URL is not set. */
export async function evmGateway(
  config: ServerConfig,
  signer: RemoteSigner | undefined,
  sql: ChainSql | null,
): Promise<EvmGateway | undefined> {
  const evm = config.evm;
  if (!evm) return undefined;
  return new EvmGateway({
    rpcUrl: evm.rpcUrl,
    token: evm.token as Address,
    decimals: evm.decimals,
    confirmations: evm.confirmations ?? 12,
    fromBlock: (await savedCursor(sql, 'ERC20')) ?? evm.fromBlock,
    signer,
    hotWallet: evm.hotWallet as Address | undefined,
    // Instances on one PostgreSQL database send one at a time, so they never take the same nonce.
    sendLock: sql ? sqlSendLock(sql, 'ERC20') : undefined,
  });
}

/** TRON's block interval, ms: how far back a resumed scan reaches per confirmation. */
const TRON_BLOCK_MS = 3_000;

/** The TRON gateway of the configuration, or undefined when TRON_API_URL is not set. */
export async function tronGateway(
  config: ServerConfig,
  signer: RemoteTronSigner | undefined,
  sql: ChainSql | null,
): Promise<TronGateway | undefined> {
  const tron = config.tron;
  if (!tron) return undefined;
  const confirmations = tron.confirmations ?? 19;
  const saved = await savedCursor(sql, 'TRC20');
  return new TronGateway({
    apiUrl: tron.apiUrl,
    apiKey: tron.apiKey,
    token: tron.token,
    confirmations,
    // A transfer still counting its confirmations when the last run stopped is found again.
    since: saved === undefined ? undefined : Math.max(0, Number(saved) - confirmations * TRON_BLOCK_MS),
    signer,
    hotWallet: tron.hotWallet,
    // No send lock (unlike evmGateway): TRON has no nonce for two instances to take twice. Each send is its own
    // transaction built by TronGrid, a withdrawal is claimed by one sender, and the signer signs its id as one
    // transaction only (docs/OPERATIONS.md "Nonces across instances").
  });
}

export interface DepositWatcher {
  /** One round now (tests; the timer calls it too). Resolves when done; never rejects. */
  round(): Promise<void>;
  close(): Promise<void>;
}

export function watchDeposits(options: {
  gateways: ChainGateway[];
  operations: Pick<EngineOperations, 'depositAddresses' | 'recordChainDeposit'>;
  mayRun: () => Promise<boolean>;
  sql: ChainSql | null;
  everyMs: number;
  log: FastifyBaseLogger;
}): DepositWatcher {
  const { gateways, operations, sql, log } = options;
  const saved = new Map<string, bigint>();
  const run = async (): Promise<void> => {
    if (!(await options.mayRun())) return;
    for (const gateway of gateways) {
      try {
        const changes = await watchRound(gateway, operations);
        for (const change of changes)
          log.info(
            {
              network: change.network,
              txHash: change.txHash,
              logIndex: change.logIndex,
              to: change.to,
              amount: change.amount.toString(),
              confirmations: change.confirmations,
              status: change.status,
            },
            'chain deposit',
          );
        const cursor = cursorOf(gateway);
        if (sql && cursor !== undefined && saved.get(gateway.network) !== cursor) {
          await saveCursor(sql, gateway.network, cursor);
          saved.set(gateway.network, cursor);
        }
      } catch (error) {
        log.error({ err: error, network: gateway.network }, 'chain watch round failed');
      }
    }
  };
  return periodicRounds(gateways.length > 0 ? options.everyMs : 0, run, undefined);
}
