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
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RemoteSigner, SignerError } from '../../../server/signer/client';
import { JournalError } from '../../../server/signer/journal';
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
      const error = await signer.signTransaction(tx, { withdrawalId: 'refused' }).catch((e: unknown) => e);
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
    const id = (n: string) => ({ withdrawalId: `limit-${n}` });
    await expect(signer.signTransaction(transfer(100_000_001n), id('a'))).rejects.toThrow(
      /per-transaction limit 100/,
    );
    await signer.signTransaction(transfer(100_000_000n), id('b'));
    await expect(signer.signTransaction(transfer(10_000_001n), id('c'))).rejects.toThrow(/daily limit 150/);
    await signer.signTransaction(transfer(10_000_000n), id('d'));
    now += DAY;
    await signer.signTransaction(transfer(100_000_000n), id('e'));
  });

  it('M2 refuses a gas limit or a fee per gas above its caps: a transfer cannot burn the hot wallet in fees', async () => {
    const refusals: Array<[TransactionSerializableEIP1559, RegExp]> = [
      // The audit's transaction: a valid 100 USDT transfer whose fees could cost 3,000 ETH.
      [transfer(1n, { gas: 30_000_000n, maxFeePerGas: 10n ** 14n }), /gas limit 30000000 is over 150000/],
      [transfer(1n, { gas: 150_001n }), /gas limit 150001 is over 150000/],
      [transfer(1n, { maxFeePerGas: 200_000_000_001n }), /fee per gas 200\.000000001 gwei is over 200 gwei/],
      [
        transfer(1n, { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 3_000_000_000n }),
        /priority fee .* above the fee per gas/,
      ],
    ];
    for (const [tx, reason] of refusals) {
      const error = await signer.signTransaction(tx, { withdrawalId: 'fees' }).catch((e: unknown) => e);
      expect((error as SignerError).status).toBe(403);
      expect((error as Error).message).toMatch(reason);
    }
    // At the caps exactly: signed.
    await signer.signTransaction(transfer(1n, { gas: 150_000n, maxFeePerGas: 200_000_000_000n }), {
      withdrawalId: 'fees-at-cap',
    });
  });

  it('L2 signs only the exact calldata of transfer(address,uint256): no appended bytes, no dirty address word', async () => {
    const exact = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [OTHER, 1n] });
    const dirtyAddress = `0xa9059cbb${'ff'.repeat(12)}${OTHER.slice(2).toLowerCase()}${exact.slice(-64)}`;
    for (const data of [`${exact}00`, `${exact}${'ab'.repeat(32)}`, dirtyAddress] as Hex[]) {
      const error = await signer
        .signTransaction(transfer(1n, { data }), { withdrawalId: 'calldata' })
        .catch((e: unknown) => e);
      expect((error as SignerError).status).toBe(403);
      expect((error as Error).message).toMatch(/calldata is not exactly transfer\(address,uint256\)/);
    }
  });

  it('requires the withdrawal id', async () => {
    const bare = await fetch(`${url}/v1/evm/sign`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET}` },
      body: JSON.stringify({ transaction: transactionToWire(transfer(1_000_000n)) }),
    });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { error: string }).error).toMatch(/withdrawalId is required/);
  });
});

describe('the signer journal (SIGNER_STATE_FILE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-signer-'));
  const file = join(dir, 'state', 'journal.jsonl');
  let clock = Date.UTC(2026, 2, 1, 9);
  const open = (stateFile = file) =>
    createSignerService({
      key: KEY,
      secret: SECRET,
      tokenContract: TOKEN,
      chainId: 31_337,
      maxPerTx: 150_000_000n,
      maxPerDay: 150_000_000n,
      stateFile,
      now: () => clock,
    });
  const started: SignerService[] = [];
  async function start(): Promise<{ service: SignerService; signer: RemoteSigner }> {
    const s = open();
    started.push(s);
    const at = await s.listen(0, '127.0.0.1');
    return { service: s, signer: await RemoteSigner.connect({ url: at, secret: SECRET }) };
  }
  afterAll(async () => {
    for (const s of started) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every signature before answering it; a restart keeps the day total and the signed ids', async () => {
    let { service: one, signer: s1 } = await start();
    await s1.signTransaction(transfer(100_000_000n, { nonce: 7 }), { withdrawalId: 'w7' });
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      withdrawalId: 'w7',
      nonce: 7,
      amount: '100000000',
      to: OTHER,
      chainId: 31_337,
      at: clock,
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await one.close();

    // Restarted: 100 of the 150 are used today.
    ({ service: one, signer: s1 } = await start());
    expect(one.signedToday()).toBe(100_000_000n);
    await expect(
      s1.signTransaction(transfer(60_000_000n, { nonce: 8 }), { withdrawalId: 'w8' }),
    ).rejects.toThrow(/daily limit 150 \(100 signed today\)/);
    // The same withdrawal again with the same nonce is a replacement (a higher fee): signed, not counted twice.
    const replacement = await s1.signTransaction(
      transfer(100_000_000n, { nonce: 7, maxFeePerGas: 3_000_000_000n }),
      { withdrawalId: 'w7' },
    );
    expect(replacement).toMatch(/^0x02/);
    expect(one.signedToday()).toBe(100_000_000n);
    // Another nonce for it could pay it twice: refused with the reason.
    const other = await s1
      .signTransaction(transfer(100_000_000n, { nonce: 9 }), { withdrawalId: 'w7' })
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(SignerError);
    expect((other as SignerError).status).toBe(409);
    expect((other as Error).message).toMatch(/already signed with nonce 7.*not nonce 9/);
    // Nor another amount under the same nonce.
    await expect(
      s1.signTransaction(transfer(1_000_000n, { nonce: 7 }), { withdrawalId: 'w7' }),
    ).rejects.toThrow(/already signed for 100 USDT/);
    await s1.signTransaction(transfer(50_000_000n, { nonce: 8 }), { withdrawalId: 'w8' });
    expect(one.signedToday()).toBe(150_000_000n);
    await one.close();

    // The next UTC day starts at 0, after a restart too; the rule on w7's nonce stays.
    clock += DAY;
    ({ service: one, signer: s1 } = await start());
    expect(one.signedToday()).toBe(0n);
    await expect(
      s1.signTransaction(transfer(100_000_000n, { nonce: 10 }), { withdrawalId: 'w7' }),
    ).rejects.toThrow(/already signed with nonce 7/);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    await one.close();
  });

  it('drops a last line cut short by a crash; refuses to start on a corrupt or unreadable journal', async () => {
    const torn = join(dir, 'torn.jsonl');
    const whole = readFileSync(file, 'utf8');
    writeFileSync(torn, `${whole}{"withdrawalId":"w9","nonce":`);
    const repaired = open(torn);
    expect(repaired.signedToday()).toBe(0n);
    expect(readFileSync(torn, 'utf8')).toBe(whole);
    await repaired.close();

    const corrupt = join(dir, 'corrupt.jsonl');
    writeFileSync(corrupt, `${whole}not json\n`);
    expect(() => open(corrupt)).toThrow(JournalError);
    expect(() => open(corrupt)).toThrow(/line 4 is not JSON/);
    writeFileSync(corrupt, whole.replace('"nonce":7', '"nonce":-1'));
    expect(() => open(corrupt)).toThrow(/line 1: nonce/);
    // A directory where the file should be: unreadable.
    expect(() => open(dir)).toThrow(/cannot open or read/);
  });
});

describe('L1 the signer refuses to start without its limits and chain id, and on a public key off a development chain', () => {
  const base = { key: KEY, secret: SECRET, tokenContract: TOKEN, chainId: 1, maxPerTx: 1n, maxPerDay: 1n };
  const OWN_KEY: Hex = `0x${'a1b2c3d4'.repeat(8)}`;

  it('names each missing setting', () => {
    const settings = { ...base, key: OWN_KEY };
    for (const name of ['chainId', 'maxPerTx', 'maxPerDay'] as const) {
      const missing = { ...settings, [name]: undefined } as unknown as Parameters<
        typeof createSignerService
      >[0];
      const variable = {
        chainId: 'SIGNER_EVM_CHAIN_ID',
        maxPerTx: 'SIGNER_MAX_PER_TX',
        maxPerDay: 'SIGNER_MAX_PER_DAY',
      }[name];
      expect(() => createSignerService(missing)).toThrow(new RegExp(`${variable} .*is required`));
    }
    expect(() => createSignerService({ ...settings, maxPerTx: 2n })).toThrow(
      /SIGNER_MAX_PER_TX .* over SIGNER_MAX_PER_DAY/,
    );
  });

  it("refuses Hardhat's public keys on a real chain, and warns about them on a development chain", async () => {
    expect(() => createSignerService(base)).toThrow(
      /public development key \(Hardhat account 2\).*chain id 1/,
    );
    const warnings: Array<Record<string, unknown>> = [];
    const local = createSignerService({ ...base, chainId: 31_337, log: (e) => warnings.push(e) });
    expect(warnings).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/public development key/) }),
    );
    await local.close();
    const quiet: Array<Record<string, unknown>> = [];
    const own = createSignerService({ ...base, key: OWN_KEY, log: (e) => quiet.push(e) });
    expect(quiet.filter((e) => e['level'] === 'warn')).toEqual([]);
    await own.close();
  });
});
