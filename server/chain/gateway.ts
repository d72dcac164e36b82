/**
 * The chain gateway: what a live server needs from a blockchain. Deposits: watched member addresses, each
 * USDT transfer reported `pending`, `confirmed` or `dropped`, identified by transaction hash plus log index so
 * it is credited at most once. Withdrawals: built, signed by the signer (a gateway never holds a key),
 * broadcast. Fees: an estimate. Adapters: server/chain/evm.ts (viem) and server/chain/tron.ts; the demo's
 * simulated chains stay in the engine. docs/OPERATIONS.md "The chain gateway".
 */
import type { ChainDepositObservation, EngineOperations } from '../../engine/index';

export type ChainNetwork = 'ERC20' | 'TRC20';

/** One token transfer to a watched address, as the gateway sees it at this poll. */
export interface ObservedDeposit {
  network: ChainNetwork;
  /** Lower-case transaction hash (0x-prefixed on EVM chains, 64 hex characters on TRON). */
  txHash: string;
  /** The Transfer event's index within its block (EVM logIndex, TRON event_index). */
  logIndex: number;
  blockNumber: number;
  /** The including block's hash when the chain reports it (EVM); null when it does not (TronGrid events). */
  blockHash: string | null;
  from: string;
  /** The watched (member) address that received it, in the network's canonical form. */
  to: string;
  /** USDT in micro-units (6 decimals), exact. */
  amount: bigint;
  /** Blocks on top of and including the transfer's block: 1 when just included. */
  confirmations: number;
  status: 'pending' | 'confirmed' | 'dropped';
}

export interface WithdrawalRequest {
  /** The platform's withdrawal id, for logs and idempotency on the operator's side. */
  id: string;
  /** Destination address, in the network's form. */
  to: string;
  /** USDT the destination receives, micro-units. */
  amount: bigint;
  /**
   * Called once the transaction is signed and before it is broadcast, with its hash (and EVM nonce): the
   * caller records it (engine.operations.recordBroadcast) so an unanswered broadcast can be checked on chain
   * later (server/chain/reconciler.ts). If it throws, nothing is broadcast.
   */
  onSigned?: (sent: SignedTransaction) => Promise<unknown>;
}

/** A signed transaction of the hot wallet: its hash and, on EVM chains, its nonce. */
export interface SignedTransaction {
  /** Same form as ObservedDeposit.txHash. */
  txHash: string;
  /** The EVM nonce; null on TRON. */
  nonce: number | null;
}

/**
 * What the chain says about a transaction the hot wallet signed and broadcast (`sentStatus`):
 * - `mined`: included in a block, `success` or failed (reverted: the transfer did not happen), with its
 *   confirmations (1 when just included);
 * - `pending`: known to the node but not mined (in its pool);
 * - `absent`: unknown to the node. `final` when it can never be mined any more (EVM: the hot wallet's mined
 *   nonce is past the transaction's, so another transaction took its nonce; TRON: its expiration is past);
 *   otherwise it might still appear (a node behind, a transaction in another node's pool).
 */
export type SentStatus =
  | { state: 'mined'; success: boolean; confirmations: number; blockNumber: number }
  | { state: 'pending' }
  | { state: 'absent'; final: boolean };

export interface SentWithdrawal {
  /** The real transaction hash, as the chain knows it (same form as ObservedDeposit.txHash). */
  txHash: string;
}

/**
 * A broadcast whose outcome is unknown (the node did not answer: a timeout, a dropped connection). The
 * signed transaction may be on chain under `txHash`, so the withdrawal must not be sent again nor rejected
 * until someone checks the chain for that hash.
 */
export class BroadcastUncertainError extends Error {
  constructor(
    readonly txHash: string,
    cause: unknown,
  ) {
    super(`Broadcast outcome unknown for ${txHash}: check the chain before doing anything else`, { cause });
    this.name = 'BroadcastUncertainError';
  }
}

export interface FeeEstimate {
  /** The native coin paying the fee: ETH (or the EVM chain's coin) / TRX. */
  asset: string;
  /** The fee in the native coin's smallest unit (wei / sun), an upper bound. */
  amount: bigint;
  /** Gas (EVM) or energy (TRON) the transfer needs. */
  units: bigint;
}

export interface ChainGateway {
  readonly network: ChainNetwork;
  /** Confirmations at which a deposit is reported `confirmed` (ERC20: 12, TRC20: 19 per API.md). */
  readonly confirmations: number;
  /** Replaces the set of member addresses watched (addresses not in a valid form are refused). */
  watch(addresses: Iterable<string>): void;
  /**
   * Reads the chain up to its head and answers the deposits whose state changed since the last poll: new
   * ones (`pending`, or `confirmed` when found already deep enough), new confirmation counts, `confirmed`
   * (reported once, then forgotten) and `dropped` (likewise). Safe to call at any interval.
   */
  poll(): Promise<ObservedDeposit[]>;
  /** Builds, signs (through the signer) and broadcasts a token transfer; answers its real hash. */
  sendWithdrawal(request: WithdrawalRequest): Promise<SentWithdrawal>;
  estimateFee(request: Omit<WithdrawalRequest, 'id'>): Promise<FeeEstimate>;
  /**
   * The platform's hot wallet on this chain and its USDT balance (micro-units), for the operators' solvency
   * view (server/admin). Optional: an adapter without it shows 0 with no time.
   */
  walletBalance?(): Promise<{ address: string; amount: bigint }>;
  /**
   * Where a transaction the hot wallet signed stands on chain (the reconciler of uncertain broadcasts,
   * server/chain/reconciler.ts). Optional: a network without it leaves its uncertain withdrawals to people.
   */
  sentStatus?(sent: SignedTransaction): Promise<SentStatus>;
}

/** The engine side of a gateway report (engine/operations.ts). */
export function toObservation(deposit: ObservedDeposit): ChainDepositObservation {
  return {
    network: deposit.network,
    txHash: deposit.txHash,
    logIndex: deposit.logIndex,
    address: deposit.to,
    amount: deposit.amount,
    blockNumber: deposit.blockNumber,
    confirmations: deposit.confirmations,
    status: deposit.status,
  };
}

/**
 * One round of the deposit watcher: polls the gateway and reports every change to the engine, which records
 * a pending deposit once, credits it once at confirmation and drops it on a reorg. Answers what was reported.
 */
export async function forwardDeposits(
  gateway: ChainGateway,
  operations: Pick<EngineOperations, 'recordChainDeposit'>,
): Promise<ObservedDeposit[]> {
  const changes = await gateway.poll();
  for (const change of changes) await operations.recordChainDeposit(toObservation(change));
  return changes;
}
