/**
 * Nonces across API instances (server/chain/send-lock.ts): two engines on one PostgreSQL database, each with
 * its own EVM gateway (as two API instances have), approve two different withdrawals at the same instant
 * against a local node (ganache, evm-node.ts). Without the lock both read the same pending nonce before
 * either broadcasts (a barrier in the signer makes that certain); with it, each
 * send (nonce, signature, broadcast) runs alone and both land on chain with distinct nonces.
 * Needs DATABASE_URL (PostgreSQL); on PGlite (one process) there is no lock to take, which is checked too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createEngine, manualClock, type Engine } from '../../../engine/index';
import { EvmGateway, type EvmSigner, type SendLock } from '../../../server/chain/evm';
import { sqlSendLock } from '../../../server/chain/send-lock';
import { sendApprovedWithdrawal } from '../../../server/chain/watcher';
import { postgresDriver, type SqlDriver } from '../../../server/sql-driver';
import { SqlStore } from '../../../server/sql-store';
import { harnessCalls } from '../harness';
import { liveMember, type LiveEngine } from '../live';
import { dropSchema, freshSchema, sqlKind } from '../server/sql';
import { startTestChain, type TestChain } from './evm-node';

const FUNDER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HOT_WALLET_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const OUTSIDE: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

it('PGlite serves one process: no cross-instance lock is taken there', () => {
  const unused = async (): Promise<never> => {
    throw new Error('a PGlite send takes no lock');
  };
  const driver: SqlDriver = { kind: 'pglite', query: unused, connect: unused, close: async () => undefined };
  expect(sqlSendLock({ driver, schema: 'public' }, 'ERC20')).toBeUndefined();
});

describe.skipIf(sqlKind !== 'postgres')('two API instances on one PostgreSQL database', () => {
  const url = process.env['DATABASE_URL'] ?? '';
  const schema = freshSchema();
  const clock = manualClock(Date.UTC(2026, 0, 5, 8));
  let chain: TestChain;
  const stores: SqlStore[] = [];
  const engines: Engine[] = [];
  let member: { session: Awaited<ReturnType<typeof liveMember>>; live: LiveEngine };

  async function openInstance(): Promise<{ engine: Engine; store: SqlStore }> {
    const store = await SqlStore.open(await postgresDriver(url, { poolSize: 3 }), { schema });
    const engine = await createEngine({
      clock,
      seed: 31,
      storage: store,
      config: { demo: false, pbkdf2Iterations: 1_000, secrets: 'seeded' },
    });
    stores.push(store);
    engines.push(engine);
    return { engine, store };
  }

  /** Records the order of signatures and broadcasts across both instances. */
  const events: string[] = [];

  function signer(barrier?: { arrived: number; release: () => void; all: Promise<void> }): EvmSigner {
    const account = privateKeyToAccount(HOT_WALLET_KEY);
    return {
      address: account.address,
      signTransaction: async (tx, context) => {
        events.push(`sign ${context.withdrawalId} nonce ${tx.nonce}`);
        if (barrier) {
          if (++barrier.arrived === 2) barrier.release();
          await barrier.all;
        }
        return account.signTransaction(tx);
      },
    };
  }

  function gateway(s: EvmSigner, lock: SendLock | undefined): EvmGateway {
    return new EvmGateway({
      rpcUrl: chain.node.url,
      token: chain.tokenAddress,
      signer: s,
      sendLock: lock,
      client: {
        ...chain.publicClient,
        sendRawTransaction: async (args: Parameters<PublicClient['sendRawTransaction']>[0]) => {
          events.push('broadcast');
          return chain.publicClient.sendRawTransaction(args);
        },
      } as PublicClient,
    });
  }

  async function withdrawal(amount: string): Promise<string> {
    const w = await member.live.call(
      '/api/withdraw/submit',
      { currency: 'USDT', network: 'ERC20', address: OUTSIDE, amount, key: 'key1' },
      member.session,
    );
    if (w.code !== 911) throw new Error(`withdrawal: ${w.code} ${w.msg}`);
    return w.data.id;
  }

  beforeAll(async () => {
    chain = await startTestChain([FUNDER_KEY, HOT_WALLET_KEY]);
    await chain.pay(privateKeyToAccount(HOT_WALLET_KEY).address, 1_000_000_000n);
    const a = await openInstance();
    await openInstance();
    const live: LiveEngine = { engine: a.engine, clock, ...harnessCalls(a.engine) };
    const session = await liveMember(live, 'eve');
    member = { session, live };
    // 400 USDT from a confirmed ERC-20 deposit to the member's address.
    const r = await live.call('/api/recharge/address', { network: 'ERC20' }, session);
    const address = getAddress(r.data.address);
    const credited = await a.engine.operations.recordChainDeposit({
      network: 'ERC20',
      txHash: `0x${'ab'.repeat(32)}`,
      logIndex: 0,
      address,
      amount: 400_000_000n,
      blockNumber: 1,
      confirmations: 12,
      status: 'confirmed',
    });
    expect(credited.result).toBe('credited');
  }, 60_000);

  afterAll(async () => {
    for (const engine of engines) await engine.close();
    await chain?.node.stop();
    await dropSchema(schema);
  });

  it('without the lock both instances sign the same nonce (the race the lock closes)', async () => {
    const [one, two] = [await withdrawal('50'), await withdrawal('40')];
    let release!: () => void;
    const all = new Promise<void>((resolve) => {
      release = resolve;
    });
    const barrier = { arrived: 0, release, all };
    events.length = 0;
    const results = await Promise.allSettled([
      sendApprovedWithdrawal({ ERC20: gateway(signer(barrier), undefined) }, engines[0]!.operations, one),
      sendApprovedWithdrawal({ ERC20: gateway(signer(barrier), undefined) }, engines[1]!.operations, two),
    ]);
    const nonces = events.filter((e) => e.startsWith('sign')).map((e) => e.split(' nonce ')[1]);
    expect(nonces).toHaveLength(2);
    expect(nonces[0]).toBe(nonces[1]);
    // Two transfers signed with one nonce: a node keeps at most one of them (refused, or replaced in its pool),
    // so a withdrawal recorded as sent may never be paid. What ganache makes of the second depends on timing
    // (it has mined both, or refused one): not the point here, so only the first broadcast is asserted.
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('with the lock, two concurrent approvals from two instances both land on chain with distinct nonces', async () => {
    const [one, two] = [await withdrawal('60'), await withdrawal('70')];
    const locks = stores.map((store) => sqlSendLock({ driver: store.driver, schema: store.schema }, 'ERC20'));
    expect(locks.every((lock) => lock !== undefined)).toBe(true);
    const before = await chain.tokenBalance(OUTSIDE);
    events.length = 0;
    const [a, b] = await Promise.all([
      sendApprovedWithdrawal({ ERC20: gateway(signer(), locks[0]) }, engines[0]!.operations, one),
      sendApprovedWithdrawal({ ERC20: gateway(signer(), locks[1]) }, engines[1]!.operations, two),
    ]);
    if (!a.sent || !b.sent) throw new Error('not sent');
    // Each send ran alone: a signature, its broadcast, then the other's.
    expect(events.map((e) => e.split(' ')[0])).toEqual(['sign', 'broadcast', 'sign', 'broadcast']);
    const receipts = await Promise.all(
      [a.txHash, b.txHash].map((hash) =>
        chain.publicClient.waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 50 }),
      ),
    );
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
    const txs = await Promise.all(
      [a.txHash, b.txHash].map((hash) => chain.publicClient.getTransaction({ hash: hash as Hex })),
    );
    expect(txs[0]?.nonce).not.toBe(txs[1]?.nonce);
    // 60 and 70 less the 5 USDT fee each.
    expect(await chain.tokenBalance(OUTSIDE)).toBe(before + 55_000_000n + 65_000_000n);
    const list = (await member.live.call('/api/withdraw/list', {}, member.session)).data;
    const byId = new Map(list.list.map((w) => [String(w.id), w]));
    expect(byId.get(one)).toMatchObject({ status: 'success', txid: a.txHash });
    expect(byId.get(two)).toMatchObject({ status: 'success', txid: b.txHash });
  });
});
