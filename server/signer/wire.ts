/**
 * The signer's wire form of an unsigned EIP-1559 transaction (bigints as decimal strings), shared by the
 * signer process (server/signer/service.ts) and the API server's client (server/signer/client.ts).
 */
import { getAddress, isAddress, isHex, type Hex, type TransactionSerializableEIP1559 } from 'viem';

/** A request the signer refuses: its HTTP status and the reason it answers. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function bigintField(value: unknown, name: string): bigint {
  if (typeof value !== 'string' || !/^(0|[1-9][0-9]{0,77})$/.test(value))
    throw new Refusal(400, `transaction.${name} must be a decimal integer string`);
  return BigInt(value);
}

function intField(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new Refusal(400, `transaction.${name} must be a non-negative integer`);
  return value;
}

/** The wire form back to viem's, every field checked. */
export function parseTransaction(raw: unknown): TransactionSerializableEIP1559 & { data: Hex } {
  if (typeof raw !== 'object' || raw === null) throw new Refusal(400, 'transaction must be an object');
  const t = raw as Record<string, unknown>;
  const allowed = [
    'type',
    'chainId',
    'nonce',
    'to',
    'data',
    'value',
    'gas',
    'maxFeePerGas',
    'maxPriorityFeePerGas',
  ];
  for (const key of Object.keys(t))
    if (!allowed.includes(key)) throw new Refusal(400, `transaction.${key} is not allowed`);
  if (t['type'] !== 'eip1559') throw new Refusal(400, 'transaction.type must be eip1559');
  if (typeof t['to'] !== 'string' || !isAddress(t['to'], { strict: false }))
    throw new Refusal(400, 'transaction.to must be an address');
  const data = t['data'];
  if (typeof data !== 'string' || !isHex(data, { strict: true }))
    throw new Refusal(400, 'transaction.data must be hex');
  return {
    type: 'eip1559',
    chainId: intField(t['chainId'], 'chainId'),
    nonce: intField(t['nonce'], 'nonce'),
    to: getAddress(t['to']),
    data,
    value: bigintField(t['value'], 'value'),
    gas: bigintField(t['gas'], 'gas'),
    maxFeePerGas: bigintField(t['maxFeePerGas'], 'maxFeePerGas'),
    maxPriorityFeePerGas: bigintField(t['maxPriorityFeePerGas'], 'maxPriorityFeePerGas'),
  };
}

/** The wire form of a transaction (bigints as decimal strings), as RemoteSigner sends it. */
export function transactionToWire(tx: TransactionSerializableEIP1559): Record<string, unknown> {
  return {
    type: 'eip1559',
    chainId: tx.chainId,
    nonce: tx.nonce,
    to: tx.to,
    data: tx.data,
    value: (tx.value ?? 0n).toString(),
    gas: (tx.gas ?? 0n).toString(),
    maxFeePerGas: (tx.maxFeePerGas ?? 0n).toString(),
    maxPriorityFeePerGas: (tx.maxPriorityFeePerGas ?? 0n).toString(),
  };
}
