/**
 * The API server's side of the signer process (server/signer/service.ts): an EvmSigner whose key lives in
 * another process, reached over HTTP with the shared secret (`SIGNER_URL`, `SIGNER_TOKEN`). The API server
 * gets the hot wallet's address and signed bytes from it, never the key.
 */
import {
  getAddress,
  isAddress,
  isHex,
  keccak256,
  type Address,
  type Hex,
  type TransactionSerializableEIP1559,
} from 'viem';
import type { EvmSigner } from '../chain/evm';
import { transactionToWire } from './wire';

export interface RemoteSignerOptions {
  url: string;
  secret: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** When set, the signer's address must be this one (EVM_HOT_WALLET), or connecting fails. */
  expectedAddress?: string;
  /**
   * Told of every call: its name (`evm/sign`, `tron/address`...), how it ended (`ok`, `refused`: the signer
   * answered an error, `unreachable`: no answer) and how long it took (server/metrics.ts).
   */
  onCall?: (call: string, outcome: 'ok' | 'refused' | 'unreachable', seconds: number) => void;
}

export class SignerError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SignerError';
  }
}

export class RemoteSigner implements EvmSigner {
  private constructor(
    readonly address: Address,
    private readonly options: RemoteSignerOptions,
  ) {}

  /** Asks the signer for its address (authenticating with the secret). Fails with a SignerError. */
  static async connect(options: RemoteSignerOptions): Promise<RemoteSigner> {
    const answer = (await request(options, 'GET', '/v1/evm/address')) as { address?: unknown };
    if (typeof answer.address !== 'string' || !isAddress(answer.address, { strict: false }))
      throw new SignerError('The signer answered no address');
    const address = getAddress(answer.address);
    if (options.expectedAddress && getAddress(options.expectedAddress) !== address)
      throw new SignerError(
        `The signer's address ${address} is not EVM_HOT_WALLET ${options.expectedAddress}`,
      );
    return new RemoteSigner(address, options);
  }

  /** `withdrawalId` is required: the signer journals it and signs one withdrawal id with one nonce only. */
  async signTransaction(
    transaction: TransactionSerializableEIP1559,
    context: { withdrawalId: string },
  ): Promise<Hex> {
    const answer = (await request(this.options, 'POST', '/v1/evm/sign', {
      transaction: transactionToWire(transaction),
      withdrawalId: context.withdrawalId,
    })) as { serializedTransaction?: unknown; hash?: unknown };
    const signed = answer.serializedTransaction;
    if (typeof signed !== 'string' || !isHex(signed, { strict: true }) || signed.length < 4)
      throw new SignerError('The signer answered no signed transaction');
    if (typeof answer.hash === 'string' && answer.hash.toLowerCase() !== keccak256(signed).toLowerCase())
      throw new SignerError('The signer answered a hash that is not its transaction');
    return signed;
  }
}

/** One authenticated call to the signer; its JSON answer, or a SignerError. */
export async function request(
  options: RemoteSignerOptions,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
) {
  const started = performance.now();
  const call = path.replace(/^\/v1\//, '');
  let outcome: 'ok' | 'refused' | 'unreachable' = 'unreachable';
  try {
    const answer = await exchange(options, method, path, body);
    outcome = 'ok';
    return answer;
  } catch (error) {
    if (error instanceof SignerError && error.status !== undefined) outcome = 'refused';
    throw error;
  } finally {
    options.onCall?.(call, outcome, (performance.now() - started) / 1000);
  }
}

async function exchange(options: RemoteSignerOptions, method: 'GET' | 'POST', path: string, body?: unknown) {
  let response: Response;
  try {
    response = await fetch(`${options.url.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${options.secret}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (error) {
    throw new SignerError(`The signer at ${options.url} is unreachable: ${(error as Error).message}`);
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw new SignerError(`The signer answered HTTP ${response.status} without JSON`, response.status);
  }
  if (!response.ok) {
    const error = (answer as { error?: unknown }).error;
    throw new SignerError(
      `The signer refused (HTTP ${response.status}): ${typeof error === 'string' ? error : 'no reason'}`,
      response.status,
    );
  }
  return answer;
}
