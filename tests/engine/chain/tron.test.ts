/**
 * The TRON gateway (server/chain/tron.ts) against recorded TronGrid responses (fixtures/trongrid.json,
 * written by hand in TronGrid's documented format; no network, no local TRON node exists): deposits seen,
 * counted to 19 confirmations, dropped when the transaction vanishes, reported once; a withdrawal built by
 * the node, checked, signed by the signer only and broadcast; the fee estimate.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { BroadcastUncertainError, forwardDeposits } from '../../../server/chain/gateway';
import { TronGateway, type Fetch, type TronSigner } from '../../../server/chain/tron';
import type { ChainDepositObservation } from '../../../engine/index';

const TOKEN = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const MEMBER = 'TPqHFYuhDpFUucW8424ukGC2yRAWPjPUuE';
const HOT_WALLET = 'TBwhFWjboSVwDeaULDCmWVgYL5Ra62cNHE';
const OUTSIDE = 'TESy21CFQ5RnKvMhdgRfvKKDBaLEsuUVVu';
const TX1 = '709b55bd3da0f5a838125bd0ee20c5bfdd7caba173912d4281cae816b79a201b';
const TX2 = '27ca64c092a959c7edc525ed45e845b1de6a7590d173fd2fad9133c8a779a1e3';
const WITHDRAWAL_TX = '3e8156f1f2c52043402b1d9f6378cd7f77d653a76603d457b4fa5fe07ae808b1';
// Test-only key of HOT_WALLET: it exists in this file and nowhere else.
const HOT_KEY = hexToBytes('8e3f0c'.padEnd(64, '1'));

type Fixtures = Record<string, unknown[]>;

interface Replay {
  fetch: Fetch;
  requests: Array<{ key: string; body: Record<string, unknown> | null; headers: Record<string, string> }>;
}

/** Answers each request from the fixture list of its key, in order, repeating the last answer. */
function replay(): Replay {
  const fixtures = JSON.parse(
    readFileSync(fileURLToPath(new URL('./fixtures/trongrid.json', import.meta.url)), 'utf8'),
  ) as Fixtures;
  const served = new Map<string, number>();
  const requests: Replay['requests'] = [];
  const fetch: Fetch = async (url, init) => {
    const { pathname } = new URL(url);
    const body = init?.body ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    let key = `${init?.method ?? 'GET'} ${pathname}`;
    if (pathname === '/wallet/gettransactioninfobyid') key += ` ${String(body?.['value'])}`;
    requests.push({ key, body, headers: init?.headers ?? {} });
    const answers = fixtures[key];
    if (!answers) return { ok: false, status: 404, json: async () => ({}) };
    const n = served.get(key) ?? 0;
    served.set(key, n + 1);
    const answer = answers[Math.min(n, answers.length - 1)];
    return { ok: true, status: 200, json: async () => structuredClone(answer) };
  };
  return { fetch, requests };
}

const testSigner: TronSigner = {
  address: HOT_WALLET,
  // The fixtures' raw_data_hex is a stub, so this test signer signs the (checked) txID without decoding;
  // the signer process's decoding and checks are tested in signer-tron.test.ts.
  signTransaction: async ({ txId }) => {
    const sig = secp256k1.sign(hexToBytes(txId), HOT_KEY, { prehash: false, format: 'recovered' });
    // noble puts the recovery byte first; TRON wants r || s || v.
    return bytesToHex(sig.slice(1)) + bytesToHex(sig.slice(0, 1));
  },
};

describe('TRON gateway against recorded TronGrid responses', () => {
  it('reports a deposit pending, confirmed at 19 confirmations once; a vanished one dropped', async () => {
    const { fetch, requests } = replay();
    const gateway = new TronGateway({
      apiUrl: 'https://tron.test',
      apiKey: 'k',
      token: TOKEN,
      fetch,
      since: 0,
    });
    expect(() => gateway.watch(['0x' + '1'.repeat(40)])).toThrow(/TRON/);
    gateway.watch([MEMBER]);
    const recorded: ChainDepositObservation[] = [];
    const operations = {
      recordChainDeposit: async (o: ChainDepositObservation) => (
        recorded.push(o),
        { result: 'ignored' as const }
      ),
    };

    const first = await forwardDeposits(gateway, operations);
    expect(first).toEqual([
      expect.objectContaining({
        txHash: TX1,
        logIndex: 1,
        blockNumber: 65_999_999,
        amount: 125_500_000n,
        confirmations: 2,
        status: 'pending',
        to: MEMBER,
      }),
      expect.objectContaining({
        txHash: TX2,
        logIndex: 0,
        blockNumber: 66_000_000,
        amount: 7_000_000n,
        confirmations: 1,
        status: 'pending',
      }),
    ]);
    // Paged with TronGrid's fingerprint; a transfer of another token or to another address is ignored.
    expect(requests.filter((r) => r.key.startsWith('GET /v1/accounts/'))).toHaveLength(2);
    expect(requests.every((r) => r.headers['TRON-PRO-API-KEY'] === 'k')).toBe(true);

    const second = await forwardDeposits(gateway, operations);
    expect(second).toEqual([
      expect.objectContaining({ txHash: TX1, confirmations: 19, status: 'confirmed' }),
      expect.objectContaining({ txHash: TX2, status: 'dropped' }),
    ]);
    expect(await forwardDeposits(gateway, operations)).toEqual([]);
    expect(recorded.map((o) => [o.txHash, o.status])).toEqual([
      [TX1, 'pending'],
      [TX2, 'pending'],
      [TX1, 'confirmed'],
      [TX2, 'dropped'],
    ]);
    expect(recorded[2]).toMatchObject({
      network: 'TRC20',
      address: MEMBER,
      amount: 125_500_000n,
      logIndex: 1,
    });
  });

  it('a withdrawal: the node builds transfer(to, amount), the signer signs the checked txID, broadcast answers the hash', async () => {
    const { fetch, requests } = replay();
    const gateway = new TronGateway({ apiUrl: 'https://tron.test', token: TOKEN, fetch, signer: testSigner });
    const sent = await gateway.sendWithdrawal({ id: 'w1', to: OUTSIDE, amount: 95_000_000n });
    expect(sent).toEqual({ txHash: WITHDRAWAL_TX });
    const trigger = requests.find((r) => r.key === 'POST /wallet/triggersmartcontract')?.body;
    expect(trigger).toMatchObject({
      owner_address: HOT_WALLET,
      contract_address: TOKEN,
      function_selector: 'transfer(address,uint256)',
      visible: true,
    });
    const parameter = String(trigger?.['parameter']);
    expect(parameter).toHaveLength(128);
    expect(BigInt(`0x${parameter.slice(64)}`)).toBe(95_000_000n);
    const broadcast = requests.find((r) => r.key === 'POST /wallet/broadcasttransaction')?.body;
    expect(broadcast?.['txID']).toBe(WITHDRAWAL_TX);
    const [signature] = broadcast?.['signature'] as string[];
    const sig = hexToBytes(signature ?? '');
    expect(sig).toHaveLength(65);
    const recovered = secp256k1.Signature.fromBytes(sig.slice(0, 64), 'compact')
      .addRecoveryBit(sig[64] ?? 0)
      .recoverPublicKey(hexToBytes(WITHDRAWAL_TX))
      .toBytes(true);
    expect(bytesToHex(recovered)).toBe(bytesToHex(secp256k1.getPublicKey(HOT_KEY, true)));
  });

  it('refuses to sign a transaction whose txID does not cover its bytes, and sends nothing without a signer', async () => {
    const { fetch } = replay();
    const tampering: Fetch = async (url, init) => {
      const response = await fetch(url, init);
      if (!url.endsWith('/wallet/triggersmartcontract')) return response;
      const body = (await response.json()) as { transaction: { raw_data_hex: string } };
      body.transaction.raw_data_hex += '00';
      return { ok: true, status: 200, json: async () => body };
    };
    let signed = 0;
    const counting: TronSigner = {
      address: HOT_WALLET,
      signTransaction: async (tx, context) => (signed++, testSigner.signTransaction(tx, context)),
    };
    const gateway = new TronGateway({
      apiUrl: 'https://tron.test',
      token: TOKEN,
      fetch: tampering,
      signer: counting,
    });
    await expect(gateway.sendWithdrawal({ id: 'w', to: OUTSIDE, amount: 1n })).rejects.toThrow(/txID/);
    expect(signed).toBe(0);
    const watchOnly = new TronGateway({ apiUrl: 'https://tron.test', token: TOKEN, fetch });
    await expect(watchOnly.sendWithdrawal({ id: 'w', to: OUTSIDE, amount: 1n })).rejects.toThrow(/signer/);
    await expect(gateway.sendWithdrawal({ id: 'w', to: '0x' + '1'.repeat(40), amount: 1n })).rejects.toThrow(
      /TRON/,
    );
  });

  it('a broadcast with no answer is uncertain and carries the txID to look for on chain', async () => {
    const { fetch } = replay();
    const hangingUp: Fetch = async (url, init) => {
      if (url.endsWith('/wallet/broadcasttransaction')) throw new Error('socket hang up');
      return fetch(url, init);
    };
    const gateway = new TronGateway({
      apiUrl: 'https://tron.test',
      token: TOKEN,
      fetch: hangingUp,
      signer: testSigner,
    });
    const error: unknown = await gateway
      .sendWithdrawal({ id: 'w', to: OUTSIDE, amount: 1n })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BroadcastUncertainError);
    expect(error).toMatchObject({ txHash: WITHDRAWAL_TX });
  });

  it('estimates the fee as energy used times the chain energy price, in sun', async () => {
    const { fetch } = replay();
    const gateway = new TronGateway({ apiUrl: 'https://tron.test', token: TOKEN, fetch, signer: testSigner });
    expect(await gateway.estimateFee({ to: OUTSIDE, amount: 95_000_000n })).toEqual({
      asset: 'TRX',
      units: 31_895n,
      amount: 31_895n * 210n,
    });
  });

  it("reads the hot wallet's USDT balance with balanceOf (the solvency view)", async () => {
    const requests: Array<Record<string, unknown>> = [];
    const fetch: Fetch = async (url, init) => {
      expect(new URL(url).pathname).toBe('/wallet/triggerconstantcontract');
      requests.push(JSON.parse(init?.body ?? '{}') as Record<string, unknown>);
      // TronGrid's documented answer: the uint256 result as one 64-hex word.
      return {
        ok: true,
        status: 200,
        json: async () => ({
          result: { result: true },
          energy_used: 935,
          constant_result: ['000000000000000000000000000000000000000000000000000000003b9aca00'],
        }),
      };
    };
    const gateway = new TronGateway({ apiUrl: 'https://tron.test', token: TOKEN, fetch, signer: testSigner });
    expect(await gateway.walletBalance()).toEqual({ address: HOT_WALLET, amount: 1_000_000_000n });
    expect(requests[0]).toMatchObject({
      owner_address: HOT_WALLET,
      contract_address: TOKEN,
      function_selector: 'balanceOf(address)',
      visible: true,
    });
    expect(String(requests[0]?.['parameter'])).toHaveLength(64);
    await expect(
      new TronGateway({ apiUrl: 'https://tron.test', token: TOKEN, fetch }).walletBalance(),
    ).rejects.toThrow(/hot wallet/);
  });
});

describe('TRON sentStatus: where a transaction of the hot wallet stands', () => {
  const MINED = WITHDRAWAL_TX;
  const FAILED = '5f0a6c1d2e3b4a59687766554433221100ffeeddccbbaa998877665544332211';
  const POOL = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
  const GONE = '00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff';

  /** fixtures/trongrid-sent.json, keyed by path and, for the by-id calls, the id asked for. */
  function sentReplay(): Fetch {
    const fixtures = JSON.parse(
      readFileSync(fileURLToPath(new URL('./fixtures/trongrid-sent.json', import.meta.url)), 'utf8'),
    ) as Fixtures;
    const served = new Map<string, number>();
    return async (url, init) => {
      const { pathname } = new URL(url);
      const body = init?.body ? (JSON.parse(init.body) as Record<string, unknown>) : null;
      let key = `${init?.method ?? 'GET'} ${pathname}`;
      if (pathname.endsWith('byid')) key += ` ${String(body?.['value'])}`;
      const answers = fixtures[key];
      if (!answers) return { ok: false, status: 404, json: async () => ({}) };
      const n = served.get(key) ?? 0;
      served.set(key, n + 1);
      return {
        ok: true,
        status: 200,
        json: async () => structuredClone(answers[Math.min(n, answers.length - 1)]),
      };
    };
  }

  it('mined (with confirmations), mined but failed, in the pool, expired, unknown', async () => {
    const gateway = new TronGateway({ apiUrl: 'https://tron.test', token: TOKEN, fetch: sentReplay() });
    // Head 66000010: the withdrawal mined at 66000001 has 10 confirmations.
    expect(await gateway.sentStatus({ txHash: MINED.toUpperCase(), nonce: null })).toEqual({
      state: 'mined',
      success: true,
      confirmations: 10,
      blockNumber: 66000001,
    });
    // Head 66000030 from now on.
    expect(await gateway.sentStatus({ txHash: FAILED, nonce: null })).toEqual({
      state: 'mined',
      success: false,
      confirmations: 29,
      blockNumber: 66000002,
    });
    // Known to the node, not mined, and its expiration (…060000) is behind the head's time (…090000).
    expect(await gateway.sentStatus({ txHash: POOL, nonce: null })).toEqual({ state: 'absent', final: true });
    expect(await gateway.sentStatus({ txHash: GONE, nonce: null })).toEqual({
      state: 'absent',
      final: false,
    });
    await expect(gateway.sentStatus({ txHash: '0x12', nonce: null })).rejects.toThrow(/TRON transaction id/);
  });

  it('a transaction in the pool before its expiration is pending; the send records the txID before broadcasting', async () => {
    // A fresh replay: its first head block (time …030000) is before the pool transaction's expiration (…060000).
    const gateway = new TronGateway({ apiUrl: 'https://tron.test', token: TOKEN, fetch: sentReplay() });
    expect(await gateway.sentStatus({ txHash: POOL, nonce: null })).toEqual({ state: 'pending' });

    const { fetch, requests } = replay();
    const sender = new TronGateway({ apiUrl: 'https://tron.test', token: TOKEN, fetch, signer: testSigner });
    const recorded: Array<{ txHash: string; nonce: number | null; broadcasts: number }> = [];
    const sent = await sender.sendWithdrawal({
      id: 'w',
      to: OUTSIDE,
      amount: 1n,
      onSigned: async (s) => {
        recorded.push({
          ...s,
          broadcasts: requests.filter((r) => r.key.endsWith('broadcasttransaction')).length,
        });
      },
    });
    expect(sent.txHash).toBe(WITHDRAWAL_TX);
    expect(recorded).toEqual([{ txHash: WITHDRAWAL_TX, nonce: null, broadcasts: 0 }]);
  });
});
