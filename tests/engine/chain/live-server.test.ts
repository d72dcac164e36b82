/**
 * Issue 12 "Done when", end to end on a local EVM node: a live API server (DEMO=false, a watch-only
 * WALLET_XPUB, the EVM gateway from its configuration) and the signer as a separate process holding the hot
 * wallet's key (server/signer, started with `node --import tsx` as `npm run signer` does, stopped by its
 * process group).
 *
 * A member's ERC-20 deposit address is paid USDT on ganache; the server's watcher sees it, and credits it
 * once at EVM_CONFIRMATIONS, also across a restart of the server; the member asks for a withdrawal, an
 * operator approves it over HTTP, the signer signs it, and it is on chain with the record's hash; the signer's
 * per-transaction limit refuses a larger one (the claim released, rejectable); the solvency view shows the
 * hot wallet's token balance. On PostgreSQL when DATABASE_URL is set, else PGlite.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { makeOperator } from '../server/admin-helpers';
import { signUp, type Session, type TestServer } from '../server/serve';
import { startTestChain, TEST_CHAIN_ID as CHAIN_ID, type EvmNode, type TestChain } from './evm-node';
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
  SIGNER_SECRET,
  startSigner,
  untilAvailable,
} from './live-helpers';

// Test-only keys: they exist on the throw-away local node and nowhere else.
const FUNDER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HOT_WALLET_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const HOT_WALLET = privateKeyToAccount(HOT_WALLET_KEY).address;
const OUTSIDE: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let node: EvmNode;
let tokenAddress: Address;
let publicClient: PublicClient;
let testClient: TestChain['testClient'];
let testChain: TestChain;
const live = new LiveRun('strata-live-signer-');
let server: TestServer;

const tokenBalance = (address: Address) => testChain.tokenBalance(address);

const pay = (to: Address, amount: bigint) => testChain.pay(to, amount);

beforeAll(async () => {
  testChain = await startTestChain([FUNDER_KEY, HOT_WALLET_KEY]);
  ({ node, tokenAddress, publicClient, testClient } = testChain);
  // The platform's hot wallet holds USDT to pay withdrawals from.
  await pay(HOT_WALLET, 1_000_000_000n);

  server = await live.start(
    { SIGNER_EVM_KEY: HOT_WALLET_KEY, EVM_USDT_ADDRESS: tokenAddress, SIGNER_EVM_CHAIN_ID: String(CHAIN_ID) },
    { EVM_RPC_URL: node.url, EVM_USDT_ADDRESS: tokenAddress, EVM_CONFIRMATIONS: '4' },
  );
}, 60_000);

afterAll(() => live.stop(node));

describe('live mode on a local EVM node, with the signer as its own process', () => {
  let ann: Session;
  let address: Address;

  it('a member deposit from the chain is credited once, at the configured confirmations', async () => {
    expect(server.gateways.ERC20?.confirmations).toBe(4);
    ann = await signUp(server, 'ann');
    const r = await server.call('/api/recharge/address', { network: 'ERC20' }, ann);
    address = getAddress(r.data.address);
    // The watcher takes the chain's head first (a fresh server scans from there).
    await server.watcher?.round();

    const hash = await pay(address, 250_000_000n);
    const pending = await pendingDeposit(server, ann);
    expect(pending).toMatchObject({ type: 'chain', txid: hash, required: 4 });
    expect(await cash(server, ann)).toEqual({ available: '0', frozen: '0' });

    await testClient.mine({ blocks: 3 });
    await untilAvailable(server, ann, '250', 'the credit');
    expect(await deposits(server, ann)).toMatchObject([{ status: 'success', txid: hash, confirmations: 4 }]);

    // More blocks and more rounds credit nothing more.
    await testClient.mine({ blocks: 5 });
    await server.watcher?.round();
    await server.watcher?.round();
    expect(await cash(server, ann)).toEqual({ available: '250', frozen: '0' });
  });

  it('a restarted server resumes its scan and does not credit the deposit again', async () => {
    await server.close();
    // A transfer while the server is down is found after the restart.
    const hash = await pay(address, 10_000_000n);
    await testClient.mine({ blocks: 4 });
    server = await live.open();
    ann = await expectFoundAfterRestart(server, 'ann', hash, '260');
  });

  it("an operator's approval goes out through the signer, on chain with the record's hash", async () => {
    const rita = await makeOperator(live.store, server, 'rita', 'reviewer');

    const submit = await askWithdrawal(server, ann, 'ERC20', OUTSIDE, '100');
    const { id, received } = submit.data;
    expect(received).toBe('95');
    const before = await tokenBalance(OUTSIDE);
    const hotBefore = await tokenBalance(HOT_WALLET);

    const txHash = await approveSent(server, rita.token, id);
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: txHash as Hex,
      pollingInterval: 50,
    });
    expect(receipt.status).toBe('success');
    expect(getAddress(receipt.from)).toBe(HOT_WALLET);
    expect(await tokenBalance(OUTSIDE)).toBe(before + 95_000_000n);
    expect(await tokenBalance(HOT_WALLET)).toBe(hotBefore - 95_000_000n);
    await expectWithdrawalDone(server, ann, live.signer, id, txHash, '160');

    // Over the signer's per-transaction limit (120): refused, nothing on chain, the claim released.
    await expectOverLimitRefused(
      server,
      ann,
      rita.token,
      { network: 'ERC20', address: OUTSIDE },
      async () => expect(await tokenBalance(OUTSIDE)).toBe(before + 95_000_000n),
      '160',
    );

    // Solvency: the hot wallet's token balance, read from the chain; the member owes 160.
    await expectSolvency(server, rita.token, { network: 'ERC20', address: HOT_WALLET, amount: '905' }, '160');
  });

  it('the signer journaled the signature; it refuses to start on a corrupt journal or without its limits, naming the variable', async () => {
    const lines = readFileSync(live.journal, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { nonce: number }).nonce)).toEqual([0]);
    const corrupt = join(live.stateDir, 'corrupt.jsonl');
    writeFileSync(corrupt, `${lines[0] ?? ''}\n{"withdrawalId":\n`);
    await expect(
      startSigner({
        SIGNER_EVM_KEY: HOT_WALLET_KEY,
        SIGNER_TOKEN: SIGNER_SECRET,
        EVM_USDT_ADDRESS: tokenAddress,
        SIGNER_EVM_CHAIN_ID: String(CHAIN_ID),
        SIGNER_MAX_PER_TX: '120',
        SIGNER_MAX_PER_DAY: '1000',
        SIGNER_PORT: '0',
        SIGNER_STATE_FILE: corrupt,
      }),
    ).rejects.toThrow(/exited 1[\s\S]*SIGNER_STATE_FILE .*corrupt\.jsonl: line 2 is not JSON/);
    // L1: no daily limit set, no start (it used to sign without one).
    await expect(
      startSigner({
        SIGNER_EVM_KEY: HOT_WALLET_KEY,
        SIGNER_TOKEN: SIGNER_SECRET,
        EVM_USDT_ADDRESS: tokenAddress,
        SIGNER_EVM_CHAIN_ID: String(CHAIN_ID),
        SIGNER_MAX_PER_TX: '120',
        SIGNER_PORT: '0',
        SIGNER_STATE_FILE: join(live.stateDir, 'unused.jsonl'),
      }),
    ).rejects.toThrow(/exited 1[\s\S]*Strata signer not started: SIGNER_MAX_PER_DAY is required/);
  });
});
