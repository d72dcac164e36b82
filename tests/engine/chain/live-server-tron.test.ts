/**
 * Live mode on TRON, end to end except for the chain itself: a live API server (DEMO=false, a watch-only
 * WALLET_XPUB, the TRON gateway from its configuration through configFromEnv), the signer as a separate
 * process holding the TRON hot wallet's key (server/signer/main.ts, stopped by its process group), and a
 * stand-in TronGrid (tron-node.ts: TronGrid's documented responses, stateful, real protobuf transactions).
 *
 * A member's TRC-20 deposit address is paid USDT; the watcher shows it pending and credits it once at
 * TRON_CONFIRMATIONS, also across a restart of the server; an operator approves the member's TRC20
 * withdrawal over HTTP, the signer decodes and signs it, and the stand-in received a broadcast signed by
 * the hot wallet's key whose txID is the record's hash; the signer's per-transaction limit refuses a larger
 * one (503, released, rejectable); the solvency view shows the hot wallet's TRC-20 balance. A broadcast
 * whose answer is lost leaves the withdrawal "sending" with the txId recorded before the broadcast (and in
 * the signer's journal); the reconciler completes it once TRON_CONFIRMATIONS deep. On PostgreSQL when
 * DATABASE_URL is set, else PGlite.
 */
import { readFileSync } from 'node:fs';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, parseAmount } from '../../../engine/money';
import { decodeTronTransfer, tronAddressOfKey } from '../../../server/signer/tron';
import { adminCall, makeOperator } from '../server/admin-helpers';
import { signUp, type Session, type TestServer } from '../server/serve';
import { testDriver } from '../server/sql';
import {
  approveSent,
  askWithdrawal,
  cash,
  deposits,
  expectFoundAfterRestart,
  expectOverLimitRefused,
  expectSolvency,
  expectWithdrawalDone,
  LiveRun,
  pendingDeposit,
  until,
  untilAvailable,
  withdrawals,
} from './live-helpers';
import { startTronNode, type TronNode } from './tron-node';

const TOKEN = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
// Test-only keys: they exist in this file and nowhere else.
const HOT_KEY = '3c91'.padEnd(64, '5');
const HOT_WALLET = tronAddressOfKey(hexToBytes(HOT_KEY));
const EVM_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const FUNDER = 'TESy21CFQ5RnKvMhdgRfvKKDBaLEsuUVVu';
const OUTSIDE = 'TBwhFWjboSVwDeaULDCmWVgYL5Ra62cNHE';
const API_KEY = 'test-trongrid-key-0001';

let node: TronNode;
const live = new LiveRun('strata-live-tron-signer-');
let server: TestServer;

beforeAll(async () => {
  node = await startTronNode({ token: TOKEN });
  // The platform's hot wallet holds USDT to pay withdrawals from.
  node.pay(FUNDER, HOT_WALLET, 1_000_000_000n);
  server = await live.start(
    {
      SIGNER_EVM_KEY: EVM_KEY,
      SIGNER_EVM_CHAIN_ID: '31337',
      EVM_USDT_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      SIGNER_TRON_KEY: HOT_KEY,
      TRON_USDT_ADDRESS: TOKEN,
    },
    {
      TRON_API_URL: node.url,
      TRON_API_KEY: API_KEY,
      TRON_USDT_ADDRESS: TOKEN,
      TRON_CONFIRMATIONS: '5',
      TRON_HOT_WALLET: HOT_WALLET,
    },
  );
}, 60_000);

afterAll(() => live.stop(node));

describe('live mode on TRON (a stand-in TronGrid), with the signer as its own process', () => {
  let ann: Session;
  let address: string;

  it('a member deposit from the chain is shown pending, then credited once at TRON_CONFIRMATIONS', async () => {
    expect(live.config.evm).toBeUndefined();
    expect(server.gateways.TRC20?.confirmations).toBe(5);
    expect(server.gateways.ERC20).toBeUndefined();
    ann = await signUp(server, 'ann');
    const r = await server.call('/api/recharge/address', { network: 'TRC20' }, ann);
    address = r.data.address;
    expect(address).toMatch(/^T/);
    // The watcher takes the chain's head first (a fresh server reads transfers from there on).
    await server.watcher?.round();

    const txId = node.pay(FUNDER, address, 250_000_000n);
    const pending = await pendingDeposit(server, ann);
    expect(pending).toMatchObject({ type: 'chain', txid: txId, required: 5 });
    expect(await cash(server, ann)).toEqual({ available: '0', frozen: '0' });

    // Confirmations grow with the head; not credited before the fifth.
    node.mine(3);
    await until('4 confirmations', async () =>
      (await deposits(server, ann))[0]?.['confirmations'] === 4 ? true : undefined,
    );
    expect(await cash(server, ann)).toEqual({ available: '0', frozen: '0' });
    node.mine(1);
    await untilAvailable(server, ann, '250', 'the credit');
    expect(await deposits(server, ann)).toMatchObject([{ status: 'success', txid: txId, confirmations: 5 }]);

    // More blocks and more rounds credit nothing more.
    node.mine(10);
    await server.watcher?.round();
    await server.watcher?.round();
    expect(await cash(server, ann)).toEqual({ available: '250', frozen: '0' });
    // Every TronGrid request carried the API key.
    expect(node.requests.length).toBeGreaterThan(0);
    expect(node.requests.every((r) => r.apiKey === API_KEY)).toBe(true);
  });

  it('a restarted server resumes at its saved position and does not credit the deposit again', async () => {
    await server.close();
    // The position it saved: a block time (ms) the next start reads transfers from.
    const driver = await testDriver();
    try {
      const { rows } = await driver.query<{ value: string }>(
        `SELECT value FROM ${live.schema}.admin_settings WHERE key = 'chain.TRC20.since'`,
      );
      expect(rows[0]?.value).toMatch(/^[0-9]+$/);
    } finally {
      await driver.close();
    }
    // A transfer while the server is down is found after the restart.
    const txId = node.pay(FUNDER, address, 10_000_000n);
    node.mine(5);
    server = await live.open();
    ann = await expectFoundAfterRestart(server, 'ann', txId, '260');
  });

  it("an operator's approval is signed by the signer and broadcast: the hot wallet's signature, the record's hash", async () => {
    const rita = await makeOperator(live.store, server, 'rita', 'reviewer');
    const submit = await askWithdrawal(server, ann, 'TRC20', OUTSIDE, '100');
    expect(submit.code).toBe(911); // held, awaiting review
    const { id, received } = submit.data;
    const receivedMicro = parseAmount(received);
    expect(receivedMicro).toBeGreaterThan(0n);
    const before = node.balance(OUTSIDE);

    const txHash = await approveSent(server, rita.token, id);
    expect(txHash).toMatch(/^[0-9a-f]{64}$/);

    // What the stand-in received: one accepted broadcast, whose id covers its bytes and whose signature
    // recovers to the hot wallet's key.
    expect(node.broadcasts).toHaveLength(1);
    const [broadcast] = node.broadcasts;
    expect(broadcast?.accepted).toBe(true);
    const body = broadcast?.body ?? {};
    expect(body['txID']).toBe(txHash);
    const raw = hexToBytes(String(body['raw_data_hex']));
    expect(bytesToHex(sha256(raw))).toBe(txHash);
    const sig = hexToBytes((body['signature'] as string[])[0] ?? '');
    expect(sig).toHaveLength(65);
    const recovered = secp256k1.Signature.fromBytes(sig.subarray(0, 64), 'compact')
      .addRecoveryBit(sig[64] ?? 0)
      .recoverPublicKey(hexToBytes(txHash))
      .toBytes(true);
    expect(bytesToHex(recovered)).toBe(bytesToHex(secp256k1.getPublicKey(hexToBytes(HOT_KEY), true)));
    expect(decodeTronTransfer(raw)).toMatchObject({ to: OUTSIDE, amount: receivedMicro });
    expect(node.balance(OUTSIDE)).toBe(before + receivedMicro);

    await expectWithdrawalDone(server, ann, live.signer, id, txHash, '160');
    expect(live.signer.output()).toContain('"network":"TRC20"');
    expect(live.signer.output()).not.toContain(HOT_KEY);

    // Over the signer's per-transaction limit (120): refused, nothing broadcast, the claim released.
    await expectOverLimitRefused(
      server,
      ann,
      rita.token,
      { network: 'TRC20', address: OUTSIDE },
      () => expect(node.broadcasts).toHaveLength(1),
      '160',
    );

    // Solvency: the hot wallet's TRC-20 balance from balanceOf; the member owes 160.
    const hotLeft = formatAmount(1_000_000_000n - receivedMicro);
    await expectSolvency(
      server,
      rita.token,
      { network: 'TRC20', address: HOT_WALLET, amount: hotLeft },
      '160',
    );
  });

  it('an unanswered broadcast stays "sending" with its txId recorded first; the reconciler completes it on chain', async () => {
    const otto = await makeOperator(live.store, server, 'otto', 'reviewer');
    const submit = await askWithdrawal(server, ann, 'TRC20', OUTSIDE, '50');
    const { id, received } = submit.data;
    const before = node.balance(OUTSIDE);
    node.loseNextBroadcastAnswer();
    const approved = await adminCall(server, '/api/admin/withdrawals/approve', { id }, otto.token);
    expect(approved.code).toBe(503);
    expect(approved.msg).toMatch(/outcome is unknown/);
    // The stand-in took it (it is on chain), and the txId was recorded before the broadcast.
    const taken = node.broadcasts.at(-1);
    expect(taken?.accepted).toBe(true);
    const txId = String(taken?.body['txID']);
    expect(node.balance(OUTSIDE)).toBe(before + parseAmount(received));
    // The signer journaled the withdrawal id with that txId before answering.
    const lines = readFileSync(live.journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ network: 'TRC20', withdrawalId: id, txId });
    expect(lines.filter((l) => l['withdrawalId'] === id)).toHaveLength(1);

    // Not yet TRON_CONFIRMATIONS deep: the reconciler waits; then completes it with that txId, once.
    expect(server.reconciler).not.toBeNull();
    expect(await server.reconciler?.round()).toMatchObject([
      { withdrawalId: id, txHash: txId, action: 'waiting', status: { state: 'mined' } },
    ]);
    node.mine(5);
    await until('the reconciled withdrawal', async () => {
      const w = (await withdrawals(server, ann)).find((x) => String(x['id']) === id);
      return w?.['status'] === 'success' ? w : undefined;
    });
    expect(await server.engine.operations.sendingWithdrawals('TRC20')).toEqual([]);
    const list = await withdrawals(server, ann);
    expect(list.find((x) => String(x['id']) === id)).toMatchObject({ status: 'success', txid: txId });
    expect(await cash(server, ann)).toEqual({ available: '110', frozen: '0' });
    expect(await server.engine.diagnostics.checkInvariants()).toEqual([]);
  });
});
