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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { manualClock } from '../../../engine/index';
import type { Solvency } from '../../../server/admin/contract';
import { configFromEnv, type ServerConfig } from '../../../server/config';
import { SqlStore } from '../../../server/sql-store';
import { adminCall, adminGet, makeOperator } from '../server/admin-helpers';
import {
  login,
  signUp,
  startTestServer,
  T0,
  TEST_XPUB,
  type Session,
  type TestServer,
} from '../server/serve';
import { dropSchema, freshSchema, testDriver } from '../server/sql';
import { startTestChain, TEST_CHAIN_ID as CHAIN_ID, type EvmNode, type TestChain } from './evm-node';
import { cash, deposits, startSigner, stopGroup, until, type StartedSigner } from './live-helpers';

// Test-only keys: they exist on the throw-away local node and nowhere else.
const FUNDER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HOT_WALLET_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const HOT_WALLET = privateKeyToAccount(HOT_WALLET_KEY).address;
const OUTSIDE: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SECRET = 'test-signer-secret-0123456789abcdef';

let node: EvmNode;
let tokenAddress: Address;
let publicClient: PublicClient;
let testClient: TestChain['testClient'];
let testChain: TestChain;
let signer: StartedSigner;
const schema = freshSchema();
const clock = manualClock(T0);
let server: TestServer;
let store: SqlStore;
let config: Partial<ServerConfig>;
// The signer's journal (SIGNER_STATE_FILE), in a directory of this run.
const stateDir = mkdtempSync(join(tmpdir(), 'strata-live-signer-'));
const journal = join(stateDir, 'journal.jsonl');

const tokenBalance = (address: Address) => testChain.tokenBalance(address);

const pay = (to: Address, amount: bigint) => testChain.pay(to, amount);

async function openServer(): Promise<TestServer> {
  store = await SqlStore.open(await testDriver(), { schema });
  return startTestServer({ storage: store, clock, config: { ...config, loginPerIpPerMinute: 1_000 } });
}

beforeAll(async () => {
  testChain = await startTestChain([FUNDER_KEY, HOT_WALLET_KEY]);
  ({ node, tokenAddress, publicClient, testClient } = testChain);
  // The platform's hot wallet holds USDT to pay withdrawals from.
  await pay(HOT_WALLET, 1_000_000_000n);

  signer = await startSigner({
    SIGNER_EVM_KEY: HOT_WALLET_KEY,
    SIGNER_TOKEN: SECRET,
    EVM_USDT_ADDRESS: tokenAddress,
    SIGNER_EVM_CHAIN_ID: String(CHAIN_ID),
    SIGNER_MAX_PER_TX: '120',
    SIGNER_MAX_PER_DAY: '1000',
    SIGNER_PORT: '0',
    SIGNER_STATE_FILE: journal,
  });
  // The server's chain settings exactly as main.ts reads them from the environment.
  const fromEnv = configFromEnv({
    DEMO: 'false',
    WALLET_XPUB: TEST_XPUB,
    EVM_RPC_URL: node.url,
    EVM_USDT_ADDRESS: tokenAddress,
    EVM_CONFIRMATIONS: '4',
    SIGNER_URL: signer.url,
    SIGNER_TOKEN: SECRET,
    CHAIN_POLL_MS: '150',
  });
  config = { evm: fromEnv.evm, signer: fromEnv.signer, chainPollMs: fromEnv.chainPollMs, demo: false };
  server = await openServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await stopGroup(signer?.child);
  await node?.stop();
  await dropSchema(schema);
  rmSync(stateDir, { recursive: true, force: true });
});

describe('live mode on a local EVM node, with the signer as its own process', () => {
  let ann: Session;
  let address: Address;

  it('a member deposit from the chain is credited once, at the configured confirmations', async () => {
    expect(server.gateways.ERC20?.confirmations).toBe(4);
    ann = await signUp(server, 'ann');
    const r = await server.call('/api/recharge/address', { network: 'ERC20' }, ann);
    address = getAddress((r.data as { address: string }).address);
    // The watcher takes the chain's head first (a fresh server scans from there).
    await server.watcher?.round();

    const hash = await pay(address, 250_000_000n);
    const pending = await until('the pending deposit', async () => {
      const list = await deposits(server, ann);
      return list[0]?.['status'] === 'pending' ? list[0] : undefined;
    });
    expect(pending).toMatchObject({ type: 'chain', txid: hash, required: 4 });
    expect(await cash(server, ann)).toEqual({ available: '0', frozen: '0' });

    await testClient.mine({ blocks: 3 });
    await until('the credit', async () => ((await cash(server, ann)).available === '250' ? true : undefined));
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
    server = await openServer();
    ann = await login(server, 'ann');
    await until('the deposit made while down', async () =>
      (await cash(server, ann)).available === '260' ? true : undefined,
    );
    await server.watcher?.round();
    const list = await deposits(server, ann);
    expect(list).toHaveLength(2);
    expect(list.map((d) => d['txid'])).toContain(hash);
    expect(await cash(server, ann)).toEqual({ available: '260', frozen: '0' });
  });

  it("an operator's approval goes out through the signer, on chain with the record's hash", async () => {
    const rita = await makeOperator(store, server, 'rita', 'reviewer');

    const submit = await server.call(
      '/api/withdraw/submit',
      { currency: 'USDT', network: 'ERC20', address: OUTSIDE, amount: '100', key: 'key1' },
      ann,
    );
    const { id, received } = submit.data as { id: string; received: string };
    expect(received).toBe('95');
    const before = await tokenBalance(OUTSIDE);
    const hotBefore = await tokenBalance(HOT_WALLET);

    const approved = await adminCall(server, '/api/admin/withdrawals/approve', { id }, rita.token);
    expect(approved).toMatchObject({ code: 0, data: { status: 'success' } });
    const txHash = (approved.data as { txHash: string }).txHash;
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: txHash as Hex,
      pollingInterval: 50,
    });
    expect(receipt.status).toBe('success');
    expect(getAddress(receipt.from)).toBe(HOT_WALLET);
    expect(await tokenBalance(OUTSIDE)).toBe(before + 95_000_000n);
    expect(await tokenBalance(HOT_WALLET)).toBe(hotBefore - 95_000_000n);
    const mine = (await server.call('/api/withdraw/list', {}, ann)).data as {
      list: Array<Record<string, unknown>>;
    };
    expect(mine.list[0]).toMatchObject({ id, status: 'success', txid: txHash });
    expect(await cash(server, ann)).toEqual({ available: '160', frozen: '0' });
    expect(signer.output()).toContain(`"withdrawalId":"${id}"`);

    // Over the signer's per-transaction limit (120): refused, nothing on chain, the claim released.
    const big = await server.call(
      '/api/withdraw/submit',
      { currency: 'USDT', network: 'ERC20', address: OUTSIDE, amount: '130', key: 'key1' },
      ann,
    );
    const bigId = (big.data as { id: string }).id;
    const refused = await adminCall(server, '/api/admin/withdrawals/approve', { id: bigId }, rita.token);
    expect(refused.code).toBe(503);
    expect(refused.msg).toMatch(/per-transaction limit/);
    expect(await tokenBalance(OUTSIDE)).toBe(before + 95_000_000n);
    const rejected = await adminCall(
      server,
      '/api/admin/withdrawals/reject',
      { id: bigId, reason: 'Over the hot wallet limit' },
      rita.token,
    );
    expect(rejected.code).toBe(0);
    expect(await cash(server, ann)).toEqual({ available: '160', frozen: '0' });

    // Solvency: the hot wallet's token balance, read from the chain; the member owes 160.
    const solvency = (await adminGet(server, '/api/admin/solvency', {}, rita.token)).data as Solvency;
    expect(solvency.holdings).toContainEqual(
      expect.objectContaining({ network: 'ERC20', address: HOT_WALLET, amount: '905' }),
    );
    expect(solvency.liabilities).toBe('160');
    expect(await server.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('the signer journaled the signature; it refuses to start on a corrupt journal, naming SIGNER_STATE_FILE', async () => {
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { nonce: number }).nonce)).toEqual([0]);
    const corrupt = join(stateDir, 'corrupt.jsonl');
    writeFileSync(corrupt, `${lines[0] ?? ''}\n{"withdrawalId":\n`);
    await expect(
      startSigner({
        SIGNER_EVM_KEY: HOT_WALLET_KEY,
        SIGNER_TOKEN: SECRET,
        EVM_USDT_ADDRESS: tokenAddress,
        SIGNER_PORT: '0',
        SIGNER_STATE_FILE: corrupt,
      }),
    ).rejects.toThrow(/exited 1[\s\S]*SIGNER_STATE_FILE .*corrupt\.jsonl: line 2 is not JSON/);
  });
});
