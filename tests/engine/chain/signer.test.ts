/**
 * The signer process's service (server/signer/service.ts) and the API server's client (RemoteSigner) over
 * real HTTP on a loopback port: the shared secret, what it agrees to sign (a token transfer on the configured
 * contract and chain, nothing else), its per-transaction and daily limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  encodeFunctionData,
  erc20Abi,
  recoverTransactionAddress,
  type Address,
  type Hex,
  type TransactionSerializableEIP1559,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { RemoteSigner, SignerError } from '../../../server/signer/client';
import { createSignerService, type SignerService } from '../../../server/signer/service';
import { transactionToWire } from '../../../server/signer/wire';

const KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const TOKEN: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const OTHER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SECRET = 'unit-signer-secret-0123456789abcdef';
const DAY = 86_400_000;

let now = Date.UTC(2026, 0, 5, 12);
let service: SignerService;
let url: string;
let signer: RemoteSigner;
const log: Array<Record<string, unknown>> = [];

function transfer(micro: bigint, overrides: Partial<TransactionSerializableEIP1559> = {}) {
  return {
    type: 'eip1559' as const,
    chainId: 31_337,
    nonce: 0,
    to: TOKEN,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [OTHER, micro] }),
    value: 0n,
    gas: 60_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    ...overrides,
  };
}

beforeAll(async () => {
  service = createSignerService({
    key: KEY,
    secret: SECRET,
    tokenContract: TOKEN,
    chainId: 31_337,
    maxPerTx: 100_000_000n,
    maxPerDay: 150_000_000n,
    now: () => now,
    log: (entry) => log.push(entry),
  });
  url = await service.listen(0, '127.0.0.1');
  signer = await RemoteSigner.connect({ url, secret: SECRET });
});

afterAll(async () => {
  await service.close();
});

describe('the signer process', () => {
  it('answers its address to the holder of the secret only, and never the key', async () => {
    expect(signer.address).toBe(privateKeyToAccount(KEY).address);
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ ok: true });
    await expect(RemoteSigner.connect({ url, secret: `${SECRET}x` })).rejects.toThrow(/HTTP 401/);
    const bare = await fetch(`${url}/v1/evm/address`);
    expect(bare.status).toBe(401);
    await expect(RemoteSigner.connect({ url, secret: SECRET, expectedAddress: OTHER })).rejects.toThrow(
      /EVM_HOT_WALLET/,
    );
    await expect(RemoteSigner.connect({ url: 'http://127.0.0.1:1', secret: SECRET })).rejects.toThrow(
      /unreachable/,
    );
  });

  it("signs a token transfer: the signature is the hot wallet's", async () => {
    const signed = await signer.signTransaction(transfer(40_000_000n), { withdrawalId: 'w1' });
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(signer.address);
    expect(log.at(-1)).toMatchObject({ msg: 'signed', withdrawalId: 'w1', amount: '40', to: OTHER });
    expect(JSON.stringify(log)).not.toContain(KEY.slice(2));
  });

  it('refuses anything but a transfer on the configured contract and chain', async () => {
    const refusals: Array<[TransactionSerializableEIP1559, RegExp]> = [
      [transfer(1n, { to: OTHER }), /token contract/],
      [transfer(1n, { value: 1n }), /ether/],
      [transfer(1n, { chainId: 1 }), /chain id/],
      [
        transfer(1n, {
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [OTHER, 10n ** 30n] }),
        }),
        /only transfer/,
      ],
      [transfer(1n, { data: '0xdeadbeef' }), /not an ERC-20 call/],
    ];
    for (const [tx, reason] of refusals) {
      const error = await signer.signTransaction(tx).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SignerError);
      expect((error as SignerError).status).toBe(403);
      expect((error as Error).message).toMatch(reason);
    }
    const malformed = await fetch(`${url}/v1/evm/sign`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET}` },
      body: JSON.stringify({ transaction: { ...transactionToWire(transfer(1n)), extra: 1 } }),
    });
    expect(malformed.status).toBe(400);
  });

  it('keeps to its per-transaction and daily limits', async () => {
    // 40 signed already today; the limits are 100 per transfer and 150 per day.
    await expect(signer.signTransaction(transfer(100_000_001n))).rejects.toThrow(/per-transaction limit 100/);
    await signer.signTransaction(transfer(100_000_000n));
    await expect(signer.signTransaction(transfer(10_000_001n))).rejects.toThrow(/daily limit 150/);
    await signer.signTransaction(transfer(10_000_000n));
    now += DAY;
    await signer.signTransaction(transfer(100_000_000n));
  });
});
