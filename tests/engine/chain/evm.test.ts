/**
 * The EVM chain gateway (server/chain/evm.ts) against a local node (ganache from npm, free loopback port,
 * stopped by process group) and a USDT-like ERC-20 compiled here by solcjs. A live engine (no simulated
 * chain) receives the gateway's reports through engine.operations:
 * - a deposit to a member address is seen, confirmed after 12 blocks, credited once;
 * - a withdrawal approved by an operator is signed by a test signer, is on chain with the right amount,
 *   and the member's record carries the real hash;
 * - a deposit whose block is reorganised away before confirmation is dropped and never credited;
 * - the reconciler of uncertain broadcasts: a transaction whose broadcast answer was lost is found on chain and
 *   completed once confirmed; one that never reached the node is released once another transaction of the
 *   hot wallet took its nonce.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, HttpRequestError, TimeoutError, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EvmGateway, type EvmSigner } from '../../../server/chain/evm';
import { BroadcastUncertainError, forwardDeposits } from '../../../server/chain/gateway';
import { reconcileRound } from '../../../server/chain/reconciler';
import { sendApprovedWithdrawal, watchRound } from '../../../server/chain/watcher';
import { liveMember, openLive, type LiveEngine, type LiveSession } from '../live';
import { startTestChain, type Compiled, type EvmNode, type TestChain } from './evm-node';

// Test-only keys: they exist on the throw-away local node and nowhere else.
const FUNDER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HOT_WALLET_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const OUTSIDE: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let node: EvmNode;
let token: Compiled;
let tokenAddress: Address;
let publicClient: PublicClient;
let testClient: TestChain['testClient'];
let testChain: TestChain;

/** The signer holds the key; the gateway only ever sees its address and the signed bytes. */
function testSigner(key: Hex): EvmSigner {
  const account = privateKeyToAccount(key);
  return { address: account.address, signTransaction: (tx) => account.signTransaction(tx) };
}

const tokenBalance = (address: Address) => testChain.tokenBalance(address);

const pay = (to: Address, amount: bigint) => testChain.pay(to, amount);

async function memberWithAddress(l: LiveEngine, name: string): Promise<{ s: LiveSession; address: Address }> {
  const s = await liveMember(l, name);
  const r = await l.call('/api/recharge/address', { network: 'ERC20' }, s);
  return { s, address: getAddress(r.data.address) };
}

async function cash(l: LiveEngine, s: LiveSession): Promise<{ available: string; frozen: string }> {
  const u = (await l.call('/api/user/getuser', undefined, s)).data;
  return { available: u.available, frozen: u.frozen };
}

beforeAll(async () => {
  testChain = await startTestChain([FUNDER_KEY, HOT_WALLET_KEY]);
  ({ node, token, tokenAddress, publicClient, testClient } = testChain);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

function gateway(signer?: EvmSigner): EvmGateway {
  return new EvmGateway({
    rpcUrl: node.url,
    token: tokenAddress,
    confirmations: 12,
    signer,
    client: publicClient,
  });
}

describe('EVM gateway against a local node', () => {
  it('the test token is USDT-like: 6 decimals', async () => {
    expect(
      await publicClient.readContract({ address: tokenAddress, abi: token.abi, functionName: 'decimals' }),
    ).toBe(6);
  });

  it('a deposit to a member address is seen, confirmed after 12 blocks, credited once', async () => {
    const l = await openLive(21);
    const { s, address } = await memberWithAddress(l, 'ann');
    const g = gateway();
    // The watched set comes from the addresses the engine handed out.
    expect(await watchRound(g, l.engine.operations)).toEqual([]);

    const hash = await pay(address, 125_500_000n);
    // A transfer to an address nobody watches is none of the platform's business.
    await pay(OUTSIDE, 1_000_000n);
    let seen = await forwardDeposits(g, l.engine.operations);
    expect(seen).toEqual([
      expect.objectContaining({
        txHash: hash,
        to: address,
        amount: 125_500_000n,
        confirmations: 2,
        status: 'pending',
      }),
    ]);
    let list = (await l.call('/api/recharge/list', {}, s)).data;
    expect(list.list).toMatchObject([
      { status: 'pending', type: 'chain', txid: hash, required: 12, confirmations: 2 },
    ]);
    expect(await cash(l, s)).toEqual({ available: '0', frozen: '0' });

    await testClient.mine({ blocks: 9 });
    seen = await forwardDeposits(g, l.engine.operations);
    expect(seen).toMatchObject([{ confirmations: 11, status: 'pending' }]);
    expect(await cash(l, s)).toEqual({ available: '0', frozen: '0' });

    await testClient.mine({ blocks: 1 });
    seen = await forwardDeposits(g, l.engine.operations);
    expect(seen).toMatchObject([{ confirmations: 12, status: 'confirmed' }]);
    expect(await cash(l, s)).toEqual({ available: '125.5', frozen: '0' });

    // Later polls report nothing more; a fresh gateway rescanning the same blocks reports it again, and the
    // engine still credits it once.
    await testClient.mine({ blocks: 3 });
    expect(await forwardDeposits(g, l.engine.operations)).toEqual([]);
    const fresh = new EvmGateway({
      rpcUrl: node.url,
      token: tokenAddress,
      fromBlock: 0n,
      client: publicClient,
    });
    fresh.watch([address.toLowerCase()]);
    expect(await forwardDeposits(fresh, l.engine.operations)).toMatchObject([
      { txHash: hash, status: 'confirmed' },
    ]);
    expect(await cash(l, s)).toEqual({ available: '125.5', frozen: '0' });
    list = (await l.call('/api/recharge/list', {}, s)).data;
    expect(list.list).toMatchObject([{ status: 'success', confirmations: 12 }]);
    expect(await l.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('a withdrawal approved by an operator is signed, on chain with the right amount and the real hash', async () => {
    const l = await openLive(22);
    const { s, address } = await memberWithAddress(l, 'bob');
    const signer = testSigner(HOT_WALLET_KEY);
    const g = gateway(signer);
    // The platform's hot wallet holds USDT; the member's balance comes from a confirmed deposit.
    await pay(signer.address, 1_000_000_000n);
    g.watch([address]);
    await forwardDeposits(g, l.engine.operations);
    await pay(address, 300_000_000n);
    await testClient.mine({ blocks: 12 });
    await forwardDeposits(g, l.engine.operations);
    expect(await cash(l, s)).toEqual({ available: '300', frozen: '0' });

    const submit = await l.call(
      '/api/withdraw/submit',
      { currency: 'USDT', network: 'ERC20', address: OUTSIDE, amount: '100', key: 'key1' },
      s,
    );
    expect(submit.code).toBe(911);
    const record = submit.data;
    expect(record.received).toBe('95');
    const fee = await g.estimateFee({ to: OUTSIDE, amount: 95_000_000n });
    expect(fee.asset).toBe('ETH');
    expect(fee.units).toBeGreaterThan(21_000n);
    expect(fee.amount).toBeGreaterThan(0n);

    // The operator approves: the withdrawal is claimed once, the gateway sends `received` through the signer,
    // and the engine records the real hash.
    const before = await tokenBalance(OUTSIDE);
    const hotBefore = await tokenBalance(signer.address);
    const sent = await sendApprovedWithdrawal({ ERC20: g }, l.engine.operations, record.id);
    if (!sent.sent) throw new Error(`not sent: ${sent.reason}`);
    expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await sendApprovedWithdrawal({ ERC20: g }, l.engine.operations, record.id)).toEqual({
      sent: false,
      reason: 'not-claimable',
    });
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: sent.txHash as Hex,
      pollingInterval: 50,
    });
    expect(receipt.status).toBe('success');
    expect(getAddress(receipt.from)).toBe(signer.address);
    expect(await tokenBalance(OUTSIDE)).toBe(before + 95_000_000n);
    expect(await tokenBalance(signer.address)).toBe(hotBefore - 95_000_000n);
    expect(await l.engine.operations.completeWithdrawal(record.id, sent.txHash)).toBe(false);
    const list = (await l.call('/api/withdraw/list', {}, s)).data;
    expect(list.list[0]).toMatchObject({ status: 'success', txid: sent.txHash });
    expect(await cash(l, s)).toEqual({ available: '200', frozen: '0' });

    // Without a signer a gateway can watch but never send: the claim is released and the withdrawal can still
    // be rejected, its funds unfrozen once.
    const second = await l.call(
      '/api/withdraw/submit',
      { currency: 'USDT', network: 'ERC20', address: OUTSIDE, amount: '50', key: 'key1' },
      s,
    );
    const secondId = second.data.id;
    await expect(sendApprovedWithdrawal({ ERC20: gateway() }, l.engine.operations, secondId)).rejects.toThrow(
      /signer/,
    );
    expect(await sendApprovedWithdrawal({}, l.engine.operations, secondId)).toEqual({
      sent: false,
      reason: 'no-gateway',
    });
    expect(await cash(l, s)).toEqual({ available: '150', frozen: '50' });
    expect(await l.engine.operations.rejectWithdrawal(secondId, 'Destination not allowed')).toBe(true);
    expect(await cash(l, s)).toEqual({ available: '200', frozen: '0' });
    expect(await l.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('a deposit whose block is reorganised away before confirmation is dropped, never credited', async () => {
    const l = await openLive(23);
    const { s, address } = await memberWithAddress(l, 'cat');
    const g = gateway();
    g.watch([address]);
    await forwardDeposits(g, l.engine.operations);

    const snapshot = await testClient.snapshot();
    const hash = await pay(address, 40_000_000n);
    await testClient.mine({ blocks: 3 });
    expect(await forwardDeposits(g, l.engine.operations)).toMatchObject([
      { txHash: hash, confirmations: 4, status: 'pending' },
    ]);
    // The reorg: back to before the transfer, then a different chain of blocks grows past it.
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 6 });
    const dropped = await forwardDeposits(g, l.engine.operations);
    expect(dropped).toMatchObject([{ txHash: hash, status: 'dropped' }]);
    const list = (await l.call('/api/recharge/list', {}, s)).data;
    expect(list.list).toMatchObject([{ status: 'rejected', txid: hash }]);

    await testClient.mine({ blocks: 20 });
    expect(await forwardDeposits(g, l.engine.operations)).toEqual([]);
    expect(await cash(l, s)).toEqual({ available: '0', frozen: '0' });
    expect(await tokenBalance(address)).toBe(0n);
    expect(await l.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('the reconciler completes an uncertain broadcast found on chain, releases one whose nonce was taken', async () => {
    const l = await openLive(24);
    const { s, address } = await memberWithAddress(l, 'dan');
    const signer = testSigner(HOT_WALLET_KEY);
    await pay(signer.address, 1_000_000_000n);
    const g = gateway(signer);
    // The member's 300 USDT: a confirmed deposit (as in the test above).
    g.watch([address]);
    await forwardDeposits(g, l.engine.operations);
    await pay(address, 300_000_000n);
    await testClient.mine({ blocks: 12 });
    await forwardDeposits(g, l.engine.operations);
    const submit = async (amount: string) =>
      (
        await l.call(
          '/api/withdraw/submit',
          { currency: 'USDT', network: 'ERC20', address: OUTSIDE, amount, key: 'key1' },
          s,
        )
      ).data.id;
    const [lostAnswer, neverSent, later] = [await submit('100'), await submit('50'), await submit('50')];

    // 1. The node gets the transaction, but its answer is lost (a timeout).
    const lost = new EvmGateway({
      rpcUrl: node.url,
      token: tokenAddress,
      signer,
      client: {
        ...publicClient,
        sendRawTransaction: async (args: Parameters<PublicClient['sendRawTransaction']>[0]) => {
          await publicClient.sendRawTransaction(args);
          throw new TimeoutError({ body: {}, url: node.url });
        },
      } as PublicClient,
    });
    const first = await sendApprovedWithdrawal({ ERC20: lost }, l.engine.operations, lostAnswer).catch(
      (e: unknown) => e,
    );
    expect(first).toBeInstanceOf(BroadcastUncertainError);
    const firstHash = (first as BroadcastUncertainError).txHash;
    // 2. Signed, but the transaction never reaches the node (the connection drops).
    const cut = new EvmGateway({
      rpcUrl: node.url,
      token: tokenAddress,
      signer,
      client: {
        ...publicClient,
        sendRawTransaction: async () => {
          throw new HttpRequestError({ url: node.url, details: 'socket hang up' });
        },
      } as PublicClient,
    });
    const second = await sendApprovedWithdrawal({ ERC20: cut }, l.engine.operations, neverSent).catch(
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(BroadcastUncertainError);
    const sending = await l.engine.operations.sendingWithdrawals('ERC20');
    expect(sending.map((w) => [w.id, w.broadcast?.txHash])).toEqual([
      [lostAnswer, firstHash],
      [neverSent, (second as BroadcastUncertainError).txHash],
    ]);
    const [nonceA, nonceB] = sending.map((w) => w.broadcast?.nonce);
    expect(nonceB).toBe((nonceA ?? -2) + 1);

    // Round 1: the first is mined but not 12 deep; the second is unknown and its nonce still free.
    let round = await reconcileRound(g, l.engine.operations);
    expect(round.map((o) => [o.action, o.status?.state])).toEqual([
      ['waiting', 'mined'],
      ['waiting', 'absent'],
    ]);
    expect(round[1]?.status).toEqual({ state: 'absent', final: false });
    // 12 confirmations: the first is completed with its hash, the member's 100 captured once.
    await testClient.mine({ blocks: 11 });
    round = await reconcileRound(g, l.engine.operations);
    expect(round.map((o) => [o.withdrawalId, o.action])).toEqual([
      [lostAnswer, 'completed'],
      [neverSent, 'waiting'],
    ]);
    expect(await tokenBalance(OUTSIDE)).toBeGreaterThanOrEqual(95_000_000n);
    // Another withdrawal is sent normally: it takes the nonce of the one that never reached the node.
    const sent = await sendApprovedWithdrawal({ ERC20: g }, l.engine.operations, later);
    if (!sent.sent) throw new Error('not sent');
    const tx = await publicClient.getTransaction({ hash: sent.txHash as Hex });
    expect(tx.nonce).toBe(nonceB);
    // Not yet confirmed past that nonce: still waiting; 12 deep: never minable, released back to review.
    expect((await reconcileRound(g, l.engine.operations)).map((o) => o.action)).toEqual(['waiting']);
    await testClient.mine({ blocks: 12 });
    round = await reconcileRound(g, l.engine.operations);
    expect(round).toMatchObject([
      { withdrawalId: neverSent, action: 'released', status: { state: 'absent', final: true } },
    ]);
    expect(await l.engine.operations.sendingWithdrawals('ERC20')).toEqual([]);
    const list = (await l.call('/api/withdraw/list', {}, s)).data;
    const byId = new Map(list.list.map((w) => [String(w.id), w]));
    expect(byId.get(lostAnswer)).toMatchObject({ status: 'success', txid: firstHash });
    expect(byId.get(neverSent)).toMatchObject({ status: 'pending', txid: null });
    expect(byId.get(later)).toMatchObject({ status: 'success', txid: sent.txHash });
    expect(await l.engine.operations.rejectWithdrawal(neverSent, 'Not sent: approve a new one')).toBe(true);
    expect(await cash(l, s)).toEqual({ available: '150', frozen: '0' });
    expect(await l.engine.diagnostics.checkInvariants()).toEqual([]);
  });
});
