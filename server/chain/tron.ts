/**
 * The TRON chain gateway (server/chain/gateway.ts) over a TronGrid-compatible HTTP API: head from
 * getnowblock, deposits from TronGrid's TRC-20 index confirmed by gettransactioninfobyid, withdrawals built by
 * triggersmartcontract (txID checked as sha256(raw_data_hex)), signed by the signer and broadcast, fees from
 * triggerconstantcontract times the energy price. No local TRON node exists for CI: tests replay hand-written
 * responses in TronGrid's format. Calls and checks: docs/OPERATIONS.md "TRON adapter".
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  BroadcastUncertainError,
  type ChainGateway,
  type FeeEstimate,
  type ObservedDeposit,
  type SentStatus,
  type SentWithdrawal,
  type SignedTransaction,
  type WithdrawalRequest,
} from './gateway';
import { TRON_PREFIX, tronBase58check } from '../../engine/server';

/**
 * Signs TRON transactions for the platform's hot wallet: the transaction's raw_data bytes (which the signer
 * decodes and checks itself) and their txID in, a 65-byte signature r || s || v out (hex).
 */
export interface TronSigner {
  /** Base58 "T..." address of the hot wallet. */
  readonly address: string;
  /**
   * `context` says which withdrawal it is: the signer process journals it and signs one withdrawal id as one
   * transaction only (server/signer/ledger.ts).
   */
  signTransaction(
    transaction: { txId: string; rawDataHex: string },
    context: { withdrawalId: string },
  ): Promise<string>;
}

export type Fetch = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string },
) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}>;

export interface TronGatewayOptions {
  /** e.g. https://api.trongrid.io */
  apiUrl: string;
  apiKey?: string;
  /** The USDT (TRC-20) contract, base58. */
  token: string;
  /** API.md: 19 for TRC20. */
  confirmations?: number;
  signer?: TronSigner;
  /** The hot wallet `walletBalance` reads (base58); the signer's address by default. */
  hotWallet?: string;
  /** Most a withdrawal may burn in fees, sun (default 50 TRX). */
  feeLimit?: number;
  /** Only transfers at or after this time (ms) are read; default: the time of the first poll's head block. */
  since?: number;
  fetch?: Fetch;
}

/** `Transfer(address,address,uint256)` topic. */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

interface Trc20Item {
  transaction_id: string;
  token_info?: { address?: string; decimals?: number };
  block_timestamp: number;
  from: string;
  to: string;
  type?: string;
  value: string;
}

interface TxInfo {
  id?: string;
  blockNumber?: number;
  blockTimeStamp?: number;
  receipt?: { result?: string };
  result?: string;
  log?: Array<{ address: string; topics: string[]; data: string }>;
}

interface Tracked {
  deposit: ObservedDeposit;
}

function isTronAddress(address: string): boolean {
  try {
    const bytes = tronBase58check.decode(address);
    return bytes.length === 21 && bytes[0] === TRON_PREFIX;
  } catch {
    return false;
  }
}

/** 20 account bytes as 40 hex characters (no 41 prefix), from a base58 address. */
function accountHex(address: string): string {
  return bytesToHex(tronBase58check.decode(address).slice(1));
}

export class TronGateway implements ChainGateway {
  readonly network = 'TRC20' as const;
  readonly confirmations: number;
  private readonly options: TronGatewayOptions;
  private readonly fetch: Fetch;
  private watched = new Set<string>();
  private readonly tracked = new Map<string, Tracked>();
  private readonly finished = new Set<string>();
  private since: number | undefined;

  constructor(options: TronGatewayOptions) {
    if (!isTronAddress(options.token)) throw new TypeError(`Not a TRON address: ${options.token}`);
    this.options = options;
    this.confirmations = options.confirmations ?? 19;
    this.since = options.since;
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
  }

  /**
   * Where the next poll starts reading transfers (ms, block time): saved by the live server after each round
   * (server/chain/live.ts) and given back as `since` after a restart. Undefined before the first poll.
   */
  get nextSince(): number | undefined {
    return this.since;
  }

  watch(addresses: Iterable<string>): void {
    const next = new Set<string>();
    for (const address of addresses) {
      if (!isTronAddress(address)) throw new TypeError(`Not a TRON address: ${address}`);
      next.add(address);
    }
    this.watched = next;
  }

  async poll(): Promise<ObservedDeposit[]> {
    const now = (await this.post('/wallet/getnowblock', {})) as {
      block_header?: { raw_data?: { number?: number; timestamp?: number } };
    };
    const head = now.block_header?.raw_data?.number;
    const headTime = now.block_header?.raw_data?.timestamp;
    if (typeof head !== 'number' || typeof headTime !== 'number')
      throw new Error('getnowblock: no head block');
    const changes: ObservedDeposit[] = [];
    for (const [key, entry] of [...this.tracked]) {
      const info = await this.info(entry.deposit.txHash);
      if (!this.stillIncluded(info, entry.deposit)) {
        this.tracked.delete(key);
        this.finished.add(key);
        changes.push({ ...entry.deposit, status: 'dropped' });
        continue;
      }
      const confirmations = head - entry.deposit.blockNumber + 1;
      if (confirmations === entry.deposit.confirmations) continue;
      const deposit = { ...entry.deposit, confirmations, status: this.statusAt(confirmations) };
      if (deposit.status === 'confirmed') {
        this.tracked.delete(key);
        this.finished.add(key);
      } else this.tracked.set(key, { deposit });
      changes.push(deposit);
    }
    const since = this.since ?? headTime;
    for (const address of this.watched) {
      const items = await this.transfersTo(address, since);
      for (const item of items) {
        if (item.to !== address || (item.type !== undefined && item.type !== 'Transfer')) continue;
        if (item.token_info?.address !== undefined && item.token_info.address !== this.options.token)
          continue;
        if ((item.token_info?.decimals ?? 6) !== 6 || !/^[0-9]+$/.test(item.value)) continue;
        const amount = BigInt(item.value);
        const txHash = item.transaction_id.toLowerCase();
        if (amount === 0n || !/^[0-9a-f]{64}$/.test(txHash)) continue;
        const info = await this.info(txHash);
        const logIndex = this.logIndexOf(info, address, amount);
        if (logIndex === null || typeof info.blockNumber !== 'number' || !this.succeeded(info)) continue;
        // One sighting per transfer and block: re-included in another block after a reorg, it is new.
        const key = `${txHash}:${logIndex}:${info.blockNumber}`;
        if (this.tracked.has(key) || this.finished.has(key)) continue;
        const confirmations = head - info.blockNumber + 1;
        const deposit: ObservedDeposit = {
          network: 'TRC20',
          txHash,
          logIndex,
          blockNumber: info.blockNumber,
          blockHash: null,
          from: item.from,
          to: address,
          amount,
          confirmations,
          status: this.statusAt(confirmations),
        };
        if (deposit.status === 'confirmed') this.finished.add(key);
        else this.tracked.set(key, { deposit });
        changes.push(deposit);
      }
    }
    // Look back a little on the next poll: the index may list a transfer a few seconds after its block.
    this.since = Math.max(0, headTime - 60_000);
    return changes;
  }

  async estimateFee(request: Omit<WithdrawalRequest, 'id'>): Promise<FeeEstimate> {
    const signer = this.requireSigner();
    const [estimate, params] = await Promise.all([
      this.post('/wallet/triggerconstantcontract', this.call(signer, request)) as Promise<{
        energy_used?: number;
      }>,
      this.post('/wallet/getchainparameters', {}) as Promise<{
        chainParameter?: Array<{ key: string; value?: number }>;
      }>,
    ]);
    const energy = estimate.energy_used;
    const price = params.chainParameter?.find((p) => p.key === 'getEnergyFee')?.value;
    if (typeof energy !== 'number' || typeof price !== 'number') throw new Error('fee estimate unavailable');
    return { asset: 'TRX', units: BigInt(energy), amount: BigInt(energy) * BigInt(price) };
  }

  async sendWithdrawal(request: WithdrawalRequest): Promise<SentWithdrawal> {
    const signer = this.requireSigner();
    const built = (await this.post('/wallet/triggersmartcontract', {
      ...this.call(signer, request),
      fee_limit: this.options.feeLimit ?? 50_000_000,
      call_value: 0,
    })) as {
      result?: { result?: boolean; message?: string };
      transaction?: { txID: string; raw_data: unknown; raw_data_hex: string; visible?: boolean };
    };
    const tx = built.transaction;
    if (!built.result?.result || !tx)
      throw new Error(`triggersmartcontract refused: ${built.result?.message ?? ''}`);
    // Never sign what the node says is a transaction without checking the id covers its bytes.
    if (bytesToHex(sha256(hexToBytes(tx.raw_data_hex))) !== tx.txID.toLowerCase()) {
      throw new Error('triggersmartcontract: txID does not match raw_data_hex');
    }
    const signature = await signer.signTransaction(
      { txId: tx.txID.toLowerCase(), rawDataHex: tx.raw_data_hex },
      { withdrawalId: request.id },
    );
    // Recorded before the broadcast, so an unanswered one can be looked up later (sentStatus).
    await request.onSigned?.({ txHash: tx.txID.toLowerCase(), nonce: null });
    let answer: unknown;
    try {
      answer = await this.post('/wallet/broadcasttransaction', { ...tx, signature: [signature] });
    } catch (error) {
      // No answer: the signed transaction may be on chain under its txID.
      throw new BroadcastUncertainError(tx.txID.toLowerCase(), error);
    }
    const sent = answer as { result?: boolean; txid?: string; code?: string; message?: string };
    if (!sent.result) throw new Error(`broadcast refused: ${sent.code ?? ''} ${sent.message ?? ''}`.trim());
    return { txHash: (sent.txid ?? tx.txID).toLowerCase() };
  }

  /**
   * Where a transaction of the hot wallet stands: `gettransactioninfobyid` answers its block and receipt once
   * it is mined (an empty object before); else `gettransactionbyid` answers it while the node holds it
   * unmined, and once its `raw_data.expiration` is behind the head block's time it can never be mined. A
   * transaction the node does not know is absent, not for good (TRON has no nonce that would prove it).
   */
  async sentStatus(sent: SignedTransaction): Promise<SentStatus> {
    const txHash = sent.txHash.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(txHash)) throw new TypeError(`Not a TRON transaction id: ${sent.txHash}`);
    const head = (await this.post('/wallet/getnowblock', {})) as {
      block_header?: { raw_data?: { number?: number; timestamp?: number } };
    };
    const headNumber = head.block_header?.raw_data?.number;
    const headTime = head.block_header?.raw_data?.timestamp;
    if (typeof headNumber !== 'number' || typeof headTime !== 'number')
      throw new Error('getnowblock: no head block');
    const info = await this.info(txHash);
    if (typeof info.blockNumber === 'number') {
      return {
        state: 'mined',
        success: this.succeeded(info),
        confirmations: headNumber - info.blockNumber + 1,
        blockNumber: info.blockNumber,
      };
    }
    const known = (await this.post('/wallet/gettransactionbyid', { value: txHash })) as {
      txID?: string;
      raw_data?: { expiration?: number };
    };
    if (typeof known.txID !== 'string') return { state: 'absent', final: false };
    const expiration = known.raw_data?.expiration;
    if (typeof expiration === 'number' && expiration < headTime) return { state: 'absent', final: true };
    return { state: 'pending' };
  }

  /**
   * The hot wallet's USDT (TRC-20 `balanceOf`, read with `triggerconstantcontract`), in micro-USDT (the
   * token's 6 decimals).
   */
  async walletBalance(): Promise<{ address: string; amount: bigint }> {
    const address = this.options.hotWallet ?? this.options.signer?.address;
    if (!address || !isTronAddress(address))
      throw new Error('No hot wallet address: no signer and no hotWallet');
    const answer = (await this.post('/wallet/triggerconstantcontract', {
      owner_address: address,
      contract_address: this.options.token,
      function_selector: 'balanceOf(address)',
      parameter: accountHex(address).padStart(64, '0'),
      visible: true,
    })) as { result?: { result?: boolean; message?: string }; constant_result?: string[] };
    const word = answer.constant_result?.[0];
    if (!answer.result?.result || !word || !/^[0-9a-fA-F]{1,64}$/.test(word))
      throw new Error(`balanceOf refused: ${answer.result?.message ?? 'no result'}`);
    return { address, amount: BigInt(`0x${word}`) };
  }

  private call(signer: TronSigner, request: Omit<WithdrawalRequest, 'id'>) {
    if (!isTronAddress(request.to)) throw new TypeError(`Not a TRON address: ${request.to}`);
    if (request.amount <= 0n) throw new RangeError('amount must be positive');
    const parameter =
      accountHex(request.to).padStart(64, '0') + request.amount.toString(16).padStart(64, '0');
    return {
      owner_address: signer.address,
      contract_address: this.options.token,
      function_selector: 'transfer(address,uint256)',
      parameter,
      visible: true,
    };
  }

  private statusAt(confirmations: number): ObservedDeposit['status'] {
    return confirmations >= this.confirmations ? 'confirmed' : 'pending';
  }

  private succeeded(info: TxInfo): boolean {
    return info.result !== 'FAILED' && (info.receipt?.result ?? 'SUCCESS') === 'SUCCESS';
  }

  private stillIncluded(info: TxInfo, deposit: ObservedDeposit): boolean {
    return info.blockNumber === deposit.blockNumber && this.succeeded(info);
  }

  /** The index in the receipt's logs of the token's Transfer event to `address` for `amount`. */
  private logIndexOf(info: TxInfo, address: string, amount: bigint): number | null {
    const token = accountHex(this.options.token);
    const to = accountHex(address).padStart(64, '0');
    const logs = info.log ?? [];
    for (let i = 0; i < logs.length; i++) {
      const log = logs[i];
      if (!log || log.address.toLowerCase() !== token || log.topics[0] !== TRANSFER_TOPIC) continue;
      if (log.topics[2]?.toLowerCase() === to && BigInt(`0x${log.data || '0'}`) === amount) return i;
    }
    return null;
  }

  private async transfersTo(address: string, since: number): Promise<Trc20Item[]> {
    const out: Trc20Item[] = [];
    let fingerprint: string | undefined;
    for (let page = 0; page < 50; page++) {
      const query = new URLSearchParams({
        only_to: 'true',
        contract_address: this.options.token,
        min_timestamp: String(since),
        order_by: 'block_timestamp,asc',
        limit: '200',
      });
      if (fingerprint) query.set('fingerprint', fingerprint);
      const body = (await this.get(`/v1/accounts/${address}/transactions/trc20?${query.toString()}`)) as {
        data?: Trc20Item[];
        success?: boolean;
        meta?: { fingerprint?: string };
      };
      if (body.success === false) throw new Error('trc20 transactions: request failed');
      out.push(...(body.data ?? []));
      fingerprint = body.meta?.fingerprint;
      if (!fingerprint) break;
    }
    return out;
  }

  private async info(txHash: string): Promise<TxInfo> {
    return (await this.post('/wallet/gettransactioninfobyid', { value: txHash })) as TxInfo;
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (this.options.apiKey) headers['TRON-PRO-API-KEY'] = this.options.apiKey;
    return headers;
  }

  private async get(path: string): Promise<unknown> {
    const response = await this.fetch(`${this.options.apiUrl}${path}`, {
      method: 'GET',
      headers: this.headers(),
    });
    if (!response.ok) throw new Error(`TronGrid ${path}: HTTP ${response.status}`);
    return response.json();
  }

  private async post(path: string, body: unknown): Promise<unknown> {
    const response = await this.fetch(`${this.options.apiUrl}${path}`, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`TronGrid ${path}: HTTP ${response.status}`);
    return response.json();
  }

  private requireSigner(): TronSigner {
    if (!this.options.signer)
      throw new Error('No signer configured: this gateway can watch deposits but not send');
    return this.options.signer;
  }
}
