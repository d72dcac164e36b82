/**
 * The EVM chain gateway (server/chain/gateway.ts), built on viem: USDT-like ERC-20 deposits read from the
 * token contract's Transfer logs to watched member addresses, confirmed at the configured depth, dropped when
 * their block is reorganised away first; withdrawals built as ERC-20 `transfer` calls, signed by the Signer
 * (which alone holds the key) and broadcast as raw transactions. Tested against a local node:
 * tests/engine/chain/evm.test.ts.
 */
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  HttpRequestError,
  isAddress,
  keccak256,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  parseAbiItem,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionSerializableEIP1559,
} from 'viem';
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

/**
 * Signs EVM transactions for the platform's hot wallet. Implemented by the key-custody signer (a separate
 * process or HSM in production; a viem local account in tests). The gateway hands it a complete unsigned
 * EIP-1559 transaction and broadcasts what it returns: the private key never reaches the gateway.
 */
export interface EvmSigner {
  readonly address: Address;
  /**
   * `context` says which withdrawal it is: the signer process journals it and signs one withdrawal id with
   * one nonce only (server/signer/service.ts).
   */
  signTransaction(
    transaction: TransactionSerializableEIP1559,
    context: { withdrawalId: string },
  ): Promise<Hex>;
}

export interface EvmGatewayOptions {
  /** JSON-RPC URL of the node. */
  rpcUrl: string;
  /** The USDT (ERC-20) contract. */
  token: Address;
  /** Token decimals (USDT: 6). Amounts are converted to micro-units exactly; dust below 1e-6 is refused. */
  decimals?: number;
  /** Confirmations before a deposit is `confirmed` (API.md: 12 for ERC20). */
  confirmations?: number;
  /** First block to scan (the block the platform's addresses were created at); default: the head at first poll. */
  fromBlock?: bigint;
  /** Largest block range per eth_getLogs call. */
  maxRange?: bigint;
  signer?: EvmSigner;
  /**
   * The hot wallet whose token balance `walletBalance` reports (the solvency view); the signer's address by
   * default. An address only: the key stays with the signer.
   */
  hotWallet?: Address;
  /** An existing client (tests); otherwise one is created on rpcUrl. */
  client?: PublicClient;
  /**
   * Runs each send (nonce, signature, broadcast) while holding a lock shared by every instance sending from
   * the hot wallet (server/chain/send-lock.ts: a PostgreSQL advisory lock), so two instances never take the
   * same nonce. Without it sends are serialised within this process only.
   */
  sendLock?: SendLock;
}

/** Runs `send` while no other sender of the same hot wallet runs (in any process). */
export type SendLock = <T>(send: () => Promise<T>) => Promise<T>;

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

interface Tracked {
  deposit: ObservedDeposit;
  blockHash: Hex;
}

/** A transfer in one particular block: re-included after a reorg, it is a new sighting. */
const keyOf = (txHash: string, logIndex: number, blockHash: string) => `${txHash}:${logIndex}:${blockHash}`;

export class EvmGateway implements ChainGateway {
  readonly network = 'ERC20' as const;
  readonly confirmations: number;
  private readonly client: PublicClient;
  private readonly token: Address;
  private readonly scale: bigint;
  private readonly maxRange: bigint;
  private readonly signer: EvmSigner | undefined;
  private readonly hotWallet: Address | undefined;
  private watched = new Set<Address>();
  /** Pending deposits by txHash:logIndex:blockHash, until confirmed or dropped. */
  private readonly tracked = new Map<string, Tracked>();
  /** Deposits already reported confirmed or dropped: never reported again by a rescan. */
  private readonly finished = new Set<string>();
  private nextBlock: bigint | undefined;
  private sending: Promise<unknown> = Promise.resolve();
  private readonly sendLock: SendLock;

  constructor(options: EvmGatewayOptions) {
    const decimals = options.decimals ?? 6;
    if (!Number.isInteger(decimals) || decimals < 6) throw new RangeError('token decimals must be >= 6');
    this.scale = 10n ** BigInt(decimals - 6);
    this.confirmations = options.confirmations ?? 12;
    if (!Number.isInteger(this.confirmations) || this.confirmations < 1) {
      throw new RangeError('confirmations must be a positive integer');
    }
    this.token = getAddress(options.token);
    this.maxRange = options.maxRange ?? 2_000n;
    this.signer = options.signer;
    const hotWallet = options.hotWallet ?? options.signer?.address;
    this.hotWallet = hotWallet ? getAddress(hotWallet) : undefined;
    if (
      options.signer &&
      options.hotWallet &&
      getAddress(options.hotWallet) !== getAddress(options.signer.address)
    )
      throw new RangeError(
        `The hot wallet ${options.hotWallet} is not the signer's address ${options.signer.address}`,
      );
    this.nextBlock = options.fromBlock;
    this.sendLock = options.sendLock ?? ((send) => send());
    this.client = options.client ?? createPublicClient({ transport: http(options.rpcUrl) });
  }

  watch(addresses: Iterable<string>): void {
    const next = new Set<Address>();
    for (const address of addresses) {
      if (!isAddress(address, { strict: false })) throw new TypeError(`Not an EVM address: ${address}`);
      next.add(getAddress(address));
    }
    this.watched = next;
  }

  /** The hot wallet `walletBalance` reads (the signer's address, or the configured one). */
  get hotWalletAddress(): Address | undefined {
    return this.hotWallet;
  }

  /**
   * The first block the next poll scans for new transfers (it also reaches back `confirmations` blocks):
   * a server keeps it across restarts (server/chain/live.ts) and passes it back as `fromBlock`, so a
   * transfer made while it was down is still found. Undefined before the first poll.
   */
  get nextScanBlock(): bigint | undefined {
    return this.nextBlock;
  }

  async poll(): Promise<ObservedDeposit[]> {
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    const changes: ObservedDeposit[] = [];
    // 1. Pending deposits: still in the same block? Then count; else the block was reorganised away.
    for (const [key, entry] of [...this.tracked]) {
      const block =
        entry.deposit.blockNumber <= head ? await this.blockHash(entry.deposit.blockNumber) : null;
      if (block !== entry.blockHash) {
        this.tracked.delete(key);
        this.finished.add(key);
        changes.push({ ...entry.deposit, status: 'dropped' });
        continue;
      }
      const confirmations = Number(head - BigInt(entry.deposit.blockNumber) + 1n);
      if (confirmations === entry.deposit.confirmations) continue;
      const deposit = { ...entry.deposit, confirmations, status: this.statusAt(confirmations) };
      if (deposit.status === 'confirmed') {
        this.tracked.delete(key);
        this.finished.add(key);
      } else {
        this.tracked.set(key, { ...entry, deposit });
      }
      changes.push(deposit);
    }
    // 2. New Transfer logs. The window reaches back `confirmations` blocks, so a transfer re-included in a
    //    replacement block after a reorg is found again (under its new block and log index).
    const depth = BigInt(this.confirmations);
    const back = head >= depth ? head - depth + 1n : 0n;
    const start = this.nextBlock ?? head;
    let from = start < back ? start : back;
    if (this.watched.size > 0) {
      while (from <= head) {
        const to = from + this.maxRange - 1n < head ? from + this.maxRange - 1n : head;
        const logs = await this.client.getLogs({
          address: this.token,
          event: TRANSFER,
          args: { to: [...this.watched] },
          fromBlock: from,
          toBlock: to,
        });
        for (const log of logs) {
          const { to: receiver, from: sender, value } = log.args;
          if (
            log.removed ||
            receiver === undefined ||
            sender === undefined ||
            value === undefined ||
            log.transactionHash === null ||
            log.logIndex === null ||
            log.blockNumber === null ||
            log.blockHash === null
          ) {
            continue;
          }
          const txHash = log.transactionHash.toLowerCase();
          const key = keyOf(txHash, log.logIndex, log.blockHash);
          if (this.tracked.has(key) || this.finished.has(key)) continue;
          const address = getAddress(receiver);
          if (!this.watched.has(address) || value % this.scale !== 0n || value === 0n) continue;
          const confirmations = Number(head - log.blockNumber + 1n);
          const deposit: ObservedDeposit = {
            network: 'ERC20',
            txHash,
            logIndex: log.logIndex,
            blockNumber: Number(log.blockNumber),
            blockHash: log.blockHash,
            from: getAddress(sender),
            to: address,
            amount: value / this.scale,
            confirmations,
            status: this.statusAt(confirmations),
          };
          if (deposit.status === 'confirmed') this.finished.add(key);
          else this.tracked.set(key, { deposit, blockHash: log.blockHash });
          changes.push(deposit);
        }
        from = to + 1n;
      }
    }
    this.nextBlock = head + 1n;
    return changes;
  }

  async estimateFee(request: Omit<WithdrawalRequest, 'id'>): Promise<FeeEstimate> {
    const signer = this.requireSigner();
    const data = this.transferData(request);
    const [gas, fees] = await Promise.all([
      this.client.estimateGas({ account: signer.address, to: this.token, data }),
      this.client.estimateFeesPerGas(),
    ]);
    return { asset: 'ETH', units: gas, amount: gas * fees.maxFeePerGas };
  }

  /**
   * One send at a time in this process, and with `sendLock` across processes: each takes its nonce from the
   * pending count after the previous one was broadcast, so two approvals at once never sign the same nonce
   * (one would replace the other).
   */
  sendWithdrawal(request: WithdrawalRequest): Promise<SentWithdrawal> {
    const next = this.sending.then(() => this.sendLock(() => this.send(request)));
    this.sending = next.catch(() => undefined);
    return next;
  }

  private async send(request: WithdrawalRequest): Promise<SentWithdrawal> {
    const signer = this.requireSigner();
    const data = this.transferData(request);
    const [chainId, nonce, gas, fees] = await Promise.all([
      this.client.getChainId(),
      this.client.getTransactionCount({ address: signer.address, blockTag: 'pending' }),
      this.client.estimateGas({ account: signer.address, to: this.token, data }),
      this.client.estimateFeesPerGas(),
    ]);
    const serializedTransaction = await signer.signTransaction(
      {
        type: 'eip1559',
        chainId,
        nonce,
        to: this.token,
        data,
        value: 0n,
        gas,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      },
      { withdrawalId: request.id },
    );
    // The hash is known before the broadcast, so an unanswered broadcast can still be traced on chain.
    const expected = keccak256(serializedTransaction).toLowerCase();
    await request.onSigned?.({ txHash: expected, nonce });
    let hash: Hex;
    try {
      hash = await this.client.sendRawTransaction({ serializedTransaction });
    } catch (error) {
      if (error instanceof HttpRequestError || error instanceof TimeoutError) {
        throw new BroadcastUncertainError(expected, error);
      }
      throw error;
    }
    if (hash.toLowerCase() !== expected) {
      throw new BroadcastUncertainError(expected, new Error(`node answered ${hash}`));
    }
    return { txHash: expected };
  }

  /**
   * Where a transaction of the hot wallet stands. The hot wallet's nonce is read first, at the block
   * `confirmations` deep, and only then is the transaction looked up: an absent transaction whose nonce that
   * confirmed count has passed was replaced by another one mined with its nonce, and can never be mined.
   */
  async sentStatus(sent: SignedTransaction): Promise<SentStatus> {
    const hash = sent.txHash as Hex;
    let confirmedNonce: number | undefined;
    if (sent.nonce !== null && this.hotWallet) {
      const head = await this.client.getBlockNumber({ cacheTime: 0 });
      const depth = BigInt(this.confirmations - 1);
      confirmedNonce = await this.client.getTransactionCount({
        address: this.hotWallet,
        blockNumber: head > depth ? head - depth : 0n,
      });
    }
    try {
      const receipt = await this.client.getTransactionReceipt({ hash });
      const head = await this.client.getBlockNumber({ cacheTime: 0 });
      return {
        state: 'mined',
        success: receipt.status === 'success',
        confirmations: Number(head - receipt.blockNumber + 1n),
        blockNumber: Number(receipt.blockNumber),
      };
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
    try {
      await this.client.getTransaction({ hash });
      return { state: 'pending' };
    } catch (error) {
      if (!(error instanceof TransactionNotFoundError)) throw error;
    }
    return {
      state: 'absent',
      final: confirmedNonce !== undefined && sent.nonce !== null && confirmedNonce > sent.nonce,
    };
  }

  /** The hot wallet's token balance (ERC-20 `balanceOf`), in micro-USDT, rounded down to whole micro-units. */
  async walletBalance(): Promise<{ address: string; amount: bigint }> {
    if (!this.hotWallet) throw new Error('No hot wallet address: no signer and no EVM_HOT_WALLET');
    const value = await this.client.readContract({
      address: this.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [this.hotWallet],
    });
    return { address: this.hotWallet, amount: value / this.scale };
  }

  private statusAt(confirmations: number): ObservedDeposit['status'] {
    return confirmations >= this.confirmations ? 'confirmed' : 'pending';
  }

  private async blockHash(blockNumber: number): Promise<Hex | null> {
    try {
      return (await this.client.getBlock({ blockNumber: BigInt(blockNumber) })).hash;
    } catch {
      return null;
    }
  }

  private transferData(request: Omit<WithdrawalRequest, 'id'>): Hex {
    if (!isAddress(request.to, { strict: false })) throw new TypeError(`Not an EVM address: ${request.to}`);
    if (request.amount <= 0n) throw new RangeError('amount must be positive');
    return encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [getAddress(request.to), request.amount * this.scale],
    });
  }

  private requireSigner(): EvmSigner {
    if (!this.signer) throw new Error('No signer configured: this gateway can watch deposits but not send');
    return this.signer;
  }
}
