/**
 * The signer service: the only process that holds the hot wallet's private key. The API server's gateways
 * (server/signer/client.ts, tron-client.ts) build unsigned ERC-20 / TRC-20 transfers, this service checks
 * them on its own settings (secret, token, chain, calldata, gas and fee caps, per-transaction and daily
 * limits, one transaction per withdrawal id: limits.ts, ledger.ts, tron.ts), journals each signature before
 * answering (journal.ts), and the gateway broadcasts the signed bytes. Routes, checks and error codes:
 * docs/OPERATIONS.md "The signer process"; why a separate process: docs/SERVER.md "Key custody".
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  formatGwei,
  getAddress,
  keccak256,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { SignerJournal, type JournalEntry } from './journal';
import { checkWithdrawalId, createSignatureLedger } from './ledger';
import { DEVELOPMENT_CHAIN_IDS, publicDevelopmentKey } from './public-keys';
import { createTronSigning, type TronSigningSettings } from './tron';
import { parseTransaction, Refusal } from './wire';
import { formatAmount } from '../../engine/server';

export interface SignerSettings {
  /** The hot wallet's private key (0x + 64 hex). */
  key: Hex;
  /** The shared secret the API server presents. */
  secret: string;
  /** The only contract it signs calls to: the USDT (ERC-20) token. */
  tokenContract: Address;
  /** The only chain id it signs for (SIGNER_EVM_CHAIN_ID; required). */
  chainId: number;
  /** Token decimals (USDT: 6): limits are in USDT, converted with them. */
  decimals?: number;
  /** Largest transfer it signs, in micro-USDT (SIGNER_MAX_PER_TX; required). */
  maxPerTx: bigint;
  /** Most it signs per UTC day in total, in micro-USDT (SIGNER_MAX_PER_DAY; required). */
  maxPerDay: bigint;
  /** Highest gas limit it signs (SIGNER_EVM_MAX_GAS; default 150,000: a USDT transfer takes 35,000-65,000). */
  maxGas?: bigint;
  /** Highest fee per gas it signs, in wei (SIGNER_EVM_MAX_GWEI; default 200 gwei). */
  maxFeePerGas?: bigint;
  /**
   * The journal file (SIGNER_STATE_FILE): every signature is appended and fsync'd before it is answered, and
   * read back at start. Undefined: memory only (unit tests; the process always sets one).
   */
  stateFile?: string;
  /** Clock for the daily window (tests). */
  now?: () => number;
  /** One line per decision (never the key, never the secret). */
  log?: (entry: Record<string, unknown>) => void;
  /** TRON signing (server/signer/tron.ts): its key and token; the /v1/tron routes answer 404 without it. */
  tron?: TronSigningSettings;
}

export interface SignerService {
  readonly address: Address;
  /** Micro-USDT counted toward today's (UTC) limit (EVM and TRON together), restored from the journal at start. */
  signedToday(): bigint;
  /** The TRON hot wallet's base58 address, when a TRON key is configured. */
  readonly tronAddress: string | undefined;
  /** Listens on host:port (port 0: a free one); answers the URL. */
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
  readonly server: Server;
}

const MAX_BODY = 64 * 1024;

/** The default caps on what one EVM transaction may cost in fees (docs/OPERATIONS.md "The signer process"). */
export const DEFAULT_MAX_GAS = 150_000n;
export const DEFAULT_MAX_FEE_PER_GAS = 200_000_000_000n;

/** Settings the signer cannot run with (missing limits, a public key on a real chain): it does not start. */
export class SignerSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignerSettingsError';
  }
}

/**
 * The settings' own checks: the limits and the chain id are required (a signer without them would sign any
 * amount on any chain), and a publicly known key is refused on anything but a development chain.
 * Answers the warning to log, if any.
 */
function checkSettings(settings: SignerSettings): string | undefined {
  const required: Array<[unknown, string]> = [
    [settings.chainId, 'SIGNER_EVM_CHAIN_ID (the only chain id it signs for)'],
    [settings.maxPerTx, 'SIGNER_MAX_PER_TX (the largest transfer it signs, USDT)'],
    [settings.maxPerDay, 'SIGNER_MAX_PER_DAY (the most it signs per UTC day, USDT)'],
  ];
  for (const [value, name] of required)
    if (value === undefined || value === null) throw new SignerSettingsError(`${name} is required`);
  if (!Number.isSafeInteger(settings.chainId) || settings.chainId < 1)
    throw new SignerSettingsError('SIGNER_EVM_CHAIN_ID must be a positive integer');
  if (settings.maxPerTx <= 0n || settings.maxPerDay <= 0n)
    throw new SignerSettingsError('SIGNER_MAX_PER_TX and SIGNER_MAX_PER_DAY must be positive');
  if (settings.maxPerTx > settings.maxPerDay)
    throw new SignerSettingsError('SIGNER_MAX_PER_TX must not be over SIGNER_MAX_PER_DAY');
  for (const [value, name] of [
    [settings.maxGas, 'SIGNER_EVM_MAX_GAS'],
    [settings.maxFeePerGas, 'SIGNER_EVM_MAX_GWEI'],
  ] as const)
    if (value !== undefined && value <= 0n) throw new SignerSettingsError(`${name} must be positive`);
  const publicKeys = [
    [settings.key, 'SIGNER_EVM_KEY'],
    ...(settings.tron ? [[settings.tron.key, 'SIGNER_TRON_KEY']] : []),
  ] as const;
  for (const [key, name] of publicKeys) {
    const account = publicDevelopmentKey(key);
    if (!account) continue;
    if (!DEVELOPMENT_CHAIN_IDS.has(settings.chainId))
      throw new SignerSettingsError(
        `${name} is a public development key (${account}): anybody can spend from it. Refused on chain id ` +
          `${settings.chainId}; it is accepted on a local development chain (${[...DEVELOPMENT_CHAIN_IDS].join(', ')}) only`,
      );
    return `${name} is a public development key (${account}): anybody can spend from it; for a local development chain only`;
  }
  return undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of the presented secret (hashed first, so lengths never leak either). */
export function secretMatches(presented: string | undefined, secret: string): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(secret));
}

const usdt = formatAmount;

export function createSignerService(settings: SignerSettings): SignerService {
  if (!/^0x[0-9a-fA-F]{64}$/.test(settings.key))
    throw new Error('The signing key must be 0x and 64 hex digits');
  if (settings.secret.length < 32) throw new Error('The shared secret must be at least 32 characters');
  const warning = checkSettings(settings);
  const maxGas = settings.maxGas ?? DEFAULT_MAX_GAS;
  const maxFeePerGas = settings.maxFeePerGas ?? DEFAULT_MAX_FEE_PER_GAS;
  const account = privateKeyToAccount(settings.key);
  const tokenContract = getAddress(settings.tokenContract);
  const decimals = settings.decimals ?? 6;
  if (!Number.isInteger(decimals) || decimals < 6) throw new Error('Token decimals must be >= 6');
  const scale = 10n ** BigInt(decimals - 6);
  const now = settings.now ?? Date.now;
  const log = settings.log ?? (() => undefined);
  if (warning) log({ level: 'warn', msg: warning });
  // Reads the journal back first (a JournalError when it is unreadable or corrupt: the process refuses to start).
  const journal = settings.stateFile === undefined ? undefined : SignerJournal.open(settings.stateFile);
  /** Every withdrawal id signed (journal, then this run) and one USDT limit for both networks. */
  const ledger = createSignatureLedger({
    maxPerTx: settings.maxPerTx,
    maxPerDay: settings.maxPerDay,
    now,
    journal,
  });
  if (journal) {
    log({
      msg: 'journal read',
      signatures: journal.entries.length,
      withdrawals: ledger.withdrawals,
      signedToday: usdt(ledger.signedToday()),
      ...(journal.repaired ? { repaired: 'an unfinished last line was dropped' } : {}),
    });
  }
  const tron = settings.tron ? createTronSigning(settings.tron, { ledger, now, log }) : undefined;
  log({
    msg: 'limits',
    chainId: settings.chainId,
    maxPerTx: usdt(settings.maxPerTx),
    maxPerDay: usdt(settings.maxPerDay),
    maxGas: maxGas.toString(),
    maxGwei: formatGwei(maxFeePerGas),
    // The most fees one EVM transaction can cost the hot wallet.
    maxFeeEth: formatEther(maxGas * maxFeePerGas),
    ...(settings.tron ? { tronMaxFeeLimitSun: (settings.tron.maxFeeLimit ?? 100_000_000n).toString() } : {}),
  });

  async function sign(body: unknown): Promise<{ serializedTransaction: Hex; hash: Hex }> {
    if (typeof body !== 'object' || body === null) throw new Refusal(400, 'Body must be a JSON object');
    const { transaction: raw, withdrawalId } = body as { transaction?: unknown; withdrawalId?: unknown };
    checkWithdrawalId(withdrawalId);
    const tx = parseTransaction(raw);
    const nonce = tx.nonce;
    if (nonce === undefined) throw new Refusal(400, 'transaction.nonce is required');
    if (tx.to !== tokenContract)
      throw new Refusal(403, 'Refused: not a call to the configured token contract');
    if (tx.value !== 0n) throw new Refusal(403, 'Refused: the transaction sends ether');
    if (tx.chainId !== settings.chainId)
      throw new Refusal(403, `Refused: chain id ${tx.chainId} is not ${settings.chainId}`);
    // What the fees can cost: the gas limit times the fee per gas, both capped.
    const gas = tx.gas ?? 0n;
    const feePerGas = tx.maxFeePerGas ?? 0n;
    if (gas > maxGas) throw new Refusal(403, `Refused: the gas limit ${gas} is over ${maxGas}`);
    if (feePerGas > maxFeePerGas)
      throw new Refusal(
        403,
        `Refused: the fee per gas ${formatGwei(feePerGas)} gwei is over ${formatGwei(maxFeePerGas)} gwei`,
      );
    if ((tx.maxPriorityFeePerGas ?? 0n) > feePerGas)
      throw new Refusal(403, 'Refused: the priority fee per gas is above the fee per gas');
    let decoded;
    try {
      decoded = decodeFunctionData({ abi: erc20Abi, data: tx.data });
    } catch {
      throw new Refusal(403, 'Refused: the calldata is not an ERC-20 call');
    }
    if (decoded.functionName !== 'transfer') throw new Refusal(403, 'Refused: only transfer() is signed');
    const [to, value] = decoded.args;
    // The decoder ignores bytes after the arguments and the address word's upper 12 bytes: only the
    // canonical encoding is signed, so nothing rides along that another contract or tool could read.
    const canonical = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] });
    if ((tx.data ?? '0x').toLowerCase() !== canonical.toLowerCase())
      throw new Refusal(403, 'Refused: the calldata is not exactly transfer(address,uint256)');
    if (value <= 0n || value % scale !== 0n)
      throw new Refusal(403, 'Refused: the amount is not whole micro-USDT');
    const amount = value / scale;
    const destination = getAddress(to);
    // Checked and reserved before the (asynchronous) signature, so two requests at once cannot both pass the
    // limit, nor sign one withdrawal id with two nonces.
    const reservation = ledger.reserve(withdrawalId, { network: 'ERC20', nonce, amount, to: destination });
    let serializedTransaction: Hex;
    try {
      serializedTransaction = await account.signTransaction(tx);
    } catch (error) {
      reservation.release();
      throw error;
    }
    const hash = keccak256(serializedTransaction);
    const entry: JournalEntry = {
      network: 'ERC20',
      withdrawalId,
      nonce,
      amount,
      to: destination,
      hash,
      chainId: tx.chainId,
      at: now(),
    };
    // On disk before anyone sees the signature. If the write fails the signature is not answered, and the
    // reservation stays (the entry may have reached the disk): a retry of the same nonce is still signed.
    reservation.commit(entry);
    log({
      msg: 'signed',
      network: 'ERC20',
      withdrawalId,
      to,
      amount: usdt(amount),
      nonce,
      hash,
      ...(reservation.again ? { replacement: true } : {}),
    });
    return { serializedTransaction, hash };
  }

  async function readBody(request: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) throw new Refusal(413, 'Body too large');
      chunks.push(chunk as Buffer);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new Refusal(400, 'Body must be JSON');
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    try {
      const path = (request.url ?? '/').split('?')[0];
      if (request.method === 'GET' && path === '/health') return answer(200, { ok: true });
      const header = request.headers.authorization;
      const presented = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
      if (!secretMatches(presented, settings.secret)) {
        log({ msg: 'refused: bad secret', path, ip: request.socket.remoteAddress });
        return answer(401, { error: 'Unauthorized' });
      }
      if (request.method === 'GET' && path === '/v1/evm/address')
        return answer(200, { address: account.address });
      if (request.method === 'POST' && path === '/v1/evm/sign')
        return answer(200, await sign(await readBody(request)));
      if (tron && request.method === 'GET' && path === '/v1/tron/address')
        return answer(200, { address: tron.address });
      if (tron && request.method === 'POST' && path === '/v1/tron/sign')
        return answer(200, tron.sign(await readBody(request)));
      return answer(404, { error: 'Not found' });
    } catch (error) {
      if (error instanceof Refusal) {
        if (error.status === 403 || error.status === 409) log({ msg: 'refused', reason: error.message });
        return answer(error.status, { error: error.message });
      }
      log({ msg: 'failed', error: (error as Error).message });
      return answer(500, { error: 'Signing failed' });
    }
  }

  const server = createServer((request, response) => void handle(request, response));
  server.requestTimeout = 10_000;
  return {
    address: account.address,
    signedToday: () => ledger.signedToday(),
    tronAddress: tron?.address,
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address();
          const bound = typeof address === 'object' && address ? address.port : port;
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${bound}`);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          journal?.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
