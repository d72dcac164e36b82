/**
 * The signer's TRON route (server/signer/tron.ts) and its client (RemoteTronSigner) over real HTTP: the
 * protobuf reader checked on a published mainnet USDT transfer (its txID and signature), the test encoder
 * checked against the same bytes, a signed transfer that recovers to the signer's address, every refusal,
 * the USDT limits shared with the EVM route, one transaction per withdrawal id, and the journal
 * (SIGNER_STATE_FILE) holding TRON signatures beside EVM ones across a restart.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import { tronAddress } from '../../../engine/chain/encoding';
import { connectSigner, connectTronSigner } from '../../../server/chain/live';
import { ConfigError, configFromEnv } from '../../../server/config';
import { RemoteSigner, SignerError } from '../../../server/signer/client';
import { createSignerService, type SignerService } from '../../../server/signer/service';
import {
  checkTronTransfer,
  decodeTronTransfer,
  tronAddressHex,
  tronAddressOfKey,
  tronSigner,
} from '../../../server/signer/tron';
import { RemoteTronSigner } from '../../../server/signer/tron-client';
import { Refusal } from '../../../server/signer/wire';
import { TEST_XPUB } from '../server/serve';
import {
  bytesField,
  encodeTransferRaw,
  transferData,
  varintField,
  type TransferFields,
} from './tron-protobuf';

/**
 * A mainnet USDT transfer as published in TRON's API documentation (the /wallet/getapprovedlist example):
 * raw_data_hex, its txID and its signature, as the chain has them.
 */
const PUBLISHED = {
  txID: '4ad97d49409cfff338d2f9e71d4019c70e82030b52e15e208b1808f2f3ea782e',
  raw_data_hex:
    '0a0268bd2208bc830d2c09fa23d14092a3bae4a3335aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541cf2e99409d2a9a9190197ab0bff35ca87818c41e121541a614f803b6fd780986a42c78ec9c7f77e6ded13c2244a9059cbb0000000000000000000000415d4a41a3b0cdda5c03df72b38a20aa1b88777c7500000000000000000000000000000000000000000000000000000000f9cd95c070afceb6e4a3339001c0f4a46b',
  signature:
    'c99cdc8af6f47dc65a75aa0c6da1c5be8510736e581043162c3e8525c6e0ed8f592adaa74ba250136ea6e1fb125b3d3d024ac6abd3e24c28097d66a8e2a0c0aa01',
  owner: '41cf2e99409d2a9a9190197ab0bff35ca87818c41e',
  data: 'a9059cbb0000000000000000000000415d4a41a3b0cdda5c03df72b38a20aa1b88777c7500000000000000000000000000000000000000000000000000000000f9cd95c0',
};
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

// Test-only keys: they exist in this file and nowhere else.
const EVM_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const TRON_KEY = '7b2d'.padEnd(64, '9');
const EVM_TOKEN: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const EVM_OTHER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OUTSIDE = 'TESy21CFQ5RnKvMhdgRfvKKDBaLEsuUVVu';
const SECRET = 'unit-signer-secret-0123456789abcdef';
const HOT = tronAddressOfKey(hexToBytes(TRON_KEY));

let now = Date.UTC(2026, 0, 5, 12);
let service: SignerService;
let bare: SignerService;
let url: string;
let bareUrl: string;
let signer: RemoteTronSigner;
const log: Array<Record<string, unknown>> = [];

function fields(amount: bigint, overrides: Partial<TransferFields> = {}): TransferFields {
  return {
    refBlockBytes: 'b3c2',
    refBlockHash: 'c1f5a0d2e4b7c8a9',
    expiration: now + 60_000,
    timestamp: now,
    feeLimit: 50_000_000,
    owner: tronAddressHex(HOT),
    contract: tronAddressHex(USDT),
    data: transferData(tronAddressHex(OUTSIDE), amount),
    ...overrides,
  };
}

function transfer(amount: bigint, overrides: Partial<TransferFields> = {}, extra: Uint8Array[] = []) {
  const raw = encodeTransferRaw(fields(amount, overrides), extra);
  return { rawDataHex: bytesToHex(raw), txId: bytesToHex(sha256(raw)) };
}

beforeAll(async () => {
  service = createSignerService({
    key: EVM_KEY,
    secret: SECRET,
    tokenContract: EVM_TOKEN,
    chainId: 31_337,
    maxPerTx: 100_000_000n,
    maxPerDay: 150_000_000n,
    now: () => now,
    log: (entry) => log.push(entry),
    tron: { key: TRON_KEY, token: USDT, maxFeeLimit: 100_000_000n },
  });
  url = await service.listen(0, '127.0.0.1');
  signer = await RemoteTronSigner.connect({ url, secret: SECRET });
  // A signer without a TRON key.
  bare = createSignerService({
    key: EVM_KEY,
    secret: SECRET,
    tokenContract: EVM_TOKEN,
    chainId: 31_337,
    maxPerTx: 1n,
    maxPerDay: 1n,
  });
  bareUrl = await bare.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await service.close();
  await bare.close();
});

describe('the TRON protobuf reader on a published mainnet transaction', () => {
  it('decodes its raw_data, whose sha256 is its txID and whose signature recovers to its owner', () => {
    const raw = hexToBytes(PUBLISHED.raw_data_hex);
    const decoded = decodeTronTransfer(raw);
    expect(decoded).toEqual({
      txId: PUBLISHED.txID,
      owner: PUBLISHED.owner,
      contract: tronAddressHex(USDT),
      to: tronAddress(hexToBytes('5d4a41a3b0cdda5c03df72b38a20aa1b88777c75')),
      amount: 4_191_000_000n,
      feeLimit: 225_000_000n,
      expiration: 1_761_952_567_698n,
      timestamp: 1_761_952_507_695n,
    });
    const owner = tronAddress(hexToBytes(PUBLISHED.owner).subarray(1));
    expect(tronSigner(hexToBytes(PUBLISHED.txID), hexToBytes(PUBLISHED.signature))).toBe(owner);
    // It passes the signer's own checks for that owner, token and moment.
    expect(() =>
      checkTronTransfer(decoded, {
        owner,
        token: USDT,
        maxFeeLimit: 225_000_000n,
        maxExpirationMs: 3_600_000,
        now: 1_761_952_507_695,
      }),
    ).not.toThrow();
  });

  it('the test encoder writes the same bytes for the same fields', () => {
    const raw = encodeTransferRaw({
      refBlockBytes: '68bd',
      refBlockHash: 'bc830d2c09fa23d1',
      expiration: 1_761_952_567_698,
      timestamp: 1_761_952_507_695,
      feeLimit: 225_000_000,
      owner: PUBLISHED.owner,
      contract: tronAddressHex(USDT),
      data: PUBLISHED.data,
    });
    expect(bytesToHex(raw)).toBe(PUBLISHED.raw_data_hex);
  });
});

describe("the signer's TRON route", () => {
  it('answers its base58 address to the holder of the secret; 404 without a TRON key', async () => {
    expect(signer.address).toBe(HOT);
    expect(HOT).toMatch(/^T/);
    expect(service.tronAddress).toBe(HOT);
    expect((await fetch(`${url}/v1/tron/address`)).status).toBe(401);
    await expect(RemoteTronSigner.connect({ url, secret: SECRET, expectedAddress: OUTSIDE })).rejects.toThrow(
      /TRON_HOT_WALLET/,
    );
    await expect(RemoteTronSigner.connect({ url: bareUrl, secret: SECRET })).rejects.toThrow(
      /SIGNER_TRON_KEY/,
    );
    const sign = await fetch(`${bareUrl}/v1/tron/sign`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET}` },
      body: JSON.stringify(transfer(1n)),
    });
    expect(sign.status).toBe(404);
  });

  it("signs a USDT transfer it decoded itself: r || s || v over sha256(raw_data), the hot wallet's", async () => {
    const tx = transfer(40_000_000n);
    const signature = await signer.signTransaction(tx, { withdrawalId: 'w1' });
    expect(signature).toMatch(/^[0-9a-f]{130}$/);
    expect([0, 1]).toContain(hexToBytes(signature)[64]);
    expect(tronSigner(hexToBytes(tx.txId), hexToBytes(signature))).toBe(HOT);
    // Independently of the signer's helpers: noble recovers the hot wallet's public key.
    const sig = hexToBytes(signature);
    const recovered = secp256k1.Signature.fromBytes(sig.subarray(0, 64), 'compact')
      .addRecoveryBit(sig[64] ?? 0)
      .recoverPublicKey(hexToBytes(tx.txId))
      .toBytes(true);
    expect(bytesToHex(recovered)).toBe(bytesToHex(secp256k1.getPublicKey(hexToBytes(TRON_KEY), true)));
    expect(log.at(-1)).toMatchObject({
      msg: 'signed',
      network: 'TRC20',
      withdrawalId: 'w1',
      to: OUTSIDE,
      amount: '40',
      txId: tx.txId,
    });
    expect(JSON.stringify(log)).not.toContain(TRON_KEY);
    // The client checks the id it is given against the bytes before asking.
    await expect(
      signer.signTransaction({ ...tx, txId: '11'.repeat(32) }, { withdrawalId: 'w1' }),
    ).rejects.toThrow(/sha256/);
  });

  it('refuses anything but one transfer of the token from its own address, with a sane fee and expiration', async () => {
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [EVM_OTHER, 10n ** 30n],
    }).slice(2);
    const refusals: Array<[{ rawDataHex: string; txId: string }, RegExp]> = [
      [transfer(1n, { contract: tronAddressHex(OUTSIDE) }), /token contract/],
      [transfer(1n, { owner: tronAddressHex(OUTSIDE) }), /signer's address/],
      [transfer(1n, { callValue: 1 }), /sends TRX/],
      [transfer(1n, { data: approve }), /only transfer/],
      [transfer(1n, { data: transferData(tronAddressHex(OUTSIDE), 1n) + '00' }), /68 bytes/],
      [transfer(1n, { contractType: 1 }), /not TriggerSmartContract/],
      [transfer(1n, { memo: 'hi' }), /field 10 is not signed/],
      [transfer(1n, {}, [concatContract()]), /2 contracts/],
      [transfer(1n, { expiration: now - 1 }), /expiration/],
      [transfer(1n, { expiration: now + 2 * 3_600_000 }), /expiration/],
      [transfer(1n, { feeLimit: 0 }), /fee_limit/],
      [transfer(1n, { feeLimit: 100_000_001 }), /fee_limit/],
      [transfer(0n), /nothing/],
    ];
    for (const [tx, reason] of refusals) {
      const error = await signer.signTransaction(tx, { withdrawalId: 'refused' }).catch((e: unknown) => e);
      expect(error, String(reason)).toBeInstanceOf(SignerError);
      expect((error as SignerError).status).toBe(403);
      expect((error as Error).message).toMatch(reason);
    }
    const post = (body: unknown) =>
      fetch(`${url}/v1/tron/sign`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${SECRET}` },
        body: JSON.stringify(body),
      });
    expect((await post({ rawDataHex: 'zz', withdrawalId: 'x' })).status).toBe(400);
    expect((await post({ ...transfer(1n), withdrawalId: 'x', extra: 1 })).status).toBe(400);
    expect(
      (await post({ rawDataHex: transfer(1n).rawDataHex.slice(0, 100), withdrawalId: 'x' })).status,
    ).toBe(400);
    // Every signature is journaled under its withdrawal id: none, none signed.
    const anonymous = await post({ rawDataHex: transfer(1n).rawDataHex });
    expect(anonymous.status).toBe(400);
    expect(((await anonymous.json()) as { error: string }).error).toMatch(/withdrawalId is required/);
    // Refusals never count against the limits (checked below) and are logged.
    expect(log.filter((e) => e['msg'] === 'refused').length).toBeGreaterThanOrEqual(refusals.length);
  });

  it('keeps to the per-transaction and daily limits, shared with the EVM route', async () => {
    // 40 USDT signed on TRON already today; the limits are 100 per transfer and 150 per day in total.
    const err = await signer
      .signTransaction(transfer(100_000_001n), { withdrawalId: 'big' })
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/per-transaction limit 100/);
    const evm = await RemoteSigner.connect({ url, secret: SECRET });
    await evm.signTransaction(
      {
        type: 'eip1559',
        chainId: 31_337,
        nonce: 0,
        to: EVM_TOKEN,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [EVM_OTHER, 100_000_000n],
        }),
        value: 0n,
        gas: 60_000n,
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
      },
      { withdrawalId: 'e1' },
    );
    await expect(signer.signTransaction(transfer(10_000_001n), { withdrawalId: 'w2' })).rejects.toThrow(
      /daily limit 150/,
    );
    await signer.signTransaction(transfer(10_000_000n), { withdrawalId: 'w3' });
    expect(service.signedToday()).toBe(150_000_000n);
    now += 86_400_000;
    await signer.signTransaction(transfer(100_000_000n), { withdrawalId: 'w4' });
    expect(service.signedToday()).toBe(100_000_000n);
  });

  it('signs a withdrawal id again only as the same transaction (same txId), not counted twice; 409 otherwise', async () => {
    const tx = transfer(20_000_000n);
    const first = await signer.signTransaction(tx, { withdrawalId: 'w5' });
    expect(service.signedToday()).toBe(120_000_000n);
    // The same raw_data again (a retried request): the same signature, not counted again.
    expect(await signer.signTransaction(tx, { withdrawalId: 'w5' })).toBe(first);
    expect(service.signedToday()).toBe(120_000_000n);
    expect(log.at(-1)).toMatchObject({ msg: 'signed', withdrawalId: 'w5', txId: tx.txId, again: true });
    // Another transaction for it (TronGrid builds a new one each time: another timestamp) could pay it twice.
    const other = transfer(20_000_000n, { timestamp: now + 1 });
    const refused = await signer.signTransaction(other, { withdrawalId: 'w5' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SignerError);
    expect((refused as SignerError).status).toBe(409);
    expect((refused as Error).message).toMatch(
      new RegExp(`already signed as TRON transaction ${tx.txId}.*not ${other.txId}`),
    );
    // Nor on the other network, either way.
    const evm = await RemoteSigner.connect({ url, secret: SECRET });
    const evmTransfer = {
      type: 'eip1559' as const,
      chainId: 31_337,
      nonce: 1,
      to: EVM_TOKEN,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [EVM_OTHER, 1_000_000n] }),
      value: 0n,
      gas: 60_000n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
    };
    await expect(evm.signTransaction(evmTransfer, { withdrawalId: 'w5' })).rejects.toThrow(
      /already signed on TRC20, not ERC20/,
    );
    await expect(signer.signTransaction(transfer(1_000_000n), { withdrawalId: 'e1' })).rejects.toThrow(
      /already signed on ERC20, not TRC20/,
    );
    expect(service.signedToday()).toBe(120_000_000n);
  });

  it('a live server with TRON_API_URL connects to the TRON side, or does not start, naming the variable', async () => {
    const env = (signerUrl: string, extra: Record<string, string> = {}) =>
      configFromEnv({
        WALLET_XPUB: TEST_XPUB,
        TRON_API_URL: 'http://127.0.0.1:1',
        TRON_USDT_ADDRESS: USDT,
        SIGNER_URL: signerUrl,
        SIGNER_TOKEN: SECRET,
        ...extra,
      });
    expect((await connectTronSigner(env(url)))?.address).toBe(HOT);
    expect(await connectSigner(env(url))).toBeUndefined();
    await expect(connectTronSigner(env(url, { TRON_HOT_WALLET: OUTSIDE }))).rejects.toThrow(
      /SIGNER_URL .*TRON_HOT_WALLET/,
    );
    const refused = await connectTronSigner(env(bareUrl)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(/SIGNER_URL .*SIGNER_TRON_KEY/);
  });

  it('the reader refuses what is not protobuf', () => {
    for (const bad of ['ff', '0a', '0a05aa', '09' + '00'.repeat(8)]) {
      expect(() => decodeTronTransfer(hexToBytes(bad)), bad).toThrow(Refusal);
    }
  });
});

/** A second TriggerSmartContract contract entry (type 31 and an Any) to append to raw_data. */
function concatContract(): Uint8Array {
  return new Uint8Array([...varintField(1, 31), ...bytesField(2, new Uint8Array())]);
}

describe('the signer journal with TRON signatures (SIGNER_STATE_FILE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-signer-tron-'));
  const file = join(dir, 'journal.jsonl');
  const started: SignerService[] = [];
  async function start() {
    const s = createSignerService({
      key: EVM_KEY,
      secret: SECRET,
      tokenContract: EVM_TOKEN,
      chainId: 31_337,
      maxPerTx: 100_000_000n,
      maxPerDay: 150_000_000n,
      stateFile: file,
      now: () => now,
      tron: { key: TRON_KEY, token: USDT },
    });
    started.push(s);
    const at = await s.listen(0, '127.0.0.1');
    return {
      service: s,
      tron: await RemoteTronSigner.connect({ url: at, secret: SECRET }),
      evm: await RemoteSigner.connect({ url: at, secret: SECRET }),
    };
  }
  afterAll(async () => {
    for (const s of started) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('journals TRON signatures (id, amount, txId) beside EVM ones; a restart keeps the day total and the txIds', async () => {
    const first = await start();
    const evm = first.evm;
    let { service: one, tron } = first;
    const tx = transfer(60_000_000n);
    const signature = await tron.signTransaction(tx, { withdrawalId: 't1' });
    await evm.signTransaction(
      {
        type: 'eip1559',
        chainId: 31_337,
        nonce: 3,
        to: EVM_TOKEN,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [EVM_OTHER, 40_000_000n] }),
        value: 0n,
        gas: 60_000n,
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
      },
      { withdrawalId: 'e3' },
    );
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({
      network: 'TRC20',
      withdrawalId: 't1',
      amount: '60000000',
      to: OUTSIDE,
      txId: tx.txId,
      expiration: now + 60_000,
      at: now,
    });
    expect(lines[1]).toMatchObject({ network: 'ERC20', withdrawalId: 'e3', nonce: 3, amount: '40000000' });
    await one.close();

    // Restarted: 100 of the 150 are used today, on both networks together.
    ({ service: one, tron } = await start());
    expect(one.signedToday()).toBe(100_000_000n);
    await expect(tron.signTransaction(transfer(60_000_000n), { withdrawalId: 't2' })).rejects.toThrow(
      /daily limit 150 \(100 signed today\)/,
    );
    // t1's very transaction is signed again (the same signature), not counted again; another one is refused.
    expect(await tron.signTransaction(tx, { withdrawalId: 't1' })).toBe(signature);
    expect(one.signedToday()).toBe(100_000_000n);
    const other = await tron
      .signTransaction(transfer(60_000_000n, { timestamp: now + 5 }), { withdrawalId: 't1' })
      .catch((e: unknown) => e);
    expect((other as SignerError).status).toBe(409);
    expect((other as Error).message).toMatch(/already signed as TRON transaction/);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    await one.close();
  });
});
