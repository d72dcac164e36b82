/**
 * The chain-gateway side of engine/operations.ts: a reported transfer to a member address becomes one
 * pending deposit, is credited once at the configured confirmations however often it is reported, and is
 * dropped (never credited) when its block is reorganised away first.
 */
import { describe, expect, it } from 'vitest';
import type { ChainDepositObservation } from './index';
import { liveMember, openLive } from '../tests/engine/live';

async function live() {
  const l = await openLive(9);
  const ann = await liveMember(l, 'ann');
  const address = (await l.call('/api/recharge/address', { network: 'ERC20' }, ann)).data.address;
  const available = async () => (await l.call('/api/user/getuser', undefined, ann)).data.available;
  const deposits = async () => (await l.call('/api/recharge/list', {}, ann)).data.list;
  return { engine: l.engine, address, available, deposits };
}

const obs = (o: Partial<ChainDepositObservation> & { address: string }): ChainDepositObservation => ({
  network: 'ERC20',
  txHash: '0x' + 'a1'.repeat(32),
  logIndex: 0,
  amount: 25_000_000n,
  blockNumber: 100,
  confirmations: 1,
  status: 'pending',
  ...o,
});

describe('engine operations: chain deposits reported by a gateway', () => {
  it('B4 pending, then credited once at 12 confirmations however often reported', async () => {
    const { engine, address, available, deposits } = await live();
    const ops = engine.operations;
    expect(await ops.recordChainDeposit(obs({ address: address.toLowerCase() }))).toMatchObject({
      result: 'pending',
    });
    expect(await deposits()).toMatchObject([
      { status: 'pending', confirmations: 1, required: 12, type: 'chain' },
    ]);
    // "confirmed" below the configured count is not believed.
    expect(
      await ops.recordChainDeposit(obs({ address, confirmations: 11, status: 'confirmed' })),
    ).toMatchObject({
      result: 'pending',
    });
    expect(await available()).toBe('0');
    for (let i = 0; i < 3; i++) {
      expect(
        await ops.recordChainDeposit(obs({ address, confirmations: 12 + i, status: 'confirmed' })),
      ).toMatchObject({
        result: 'credited',
      });
    }
    expect(await available()).toBe('25');
    expect(await deposits()).toMatchObject([{ status: 'success', confirmations: 12 }]);
    // A second Transfer log in the same transaction is a different deposit.
    await ops.recordChainDeposit(obs({ address, logIndex: 1, confirmations: 12, status: 'confirmed' }));
    expect(await available()).toBe('50');
    // A later "dropped" cannot undo a credited deposit.
    expect(await ops.recordChainDeposit(obs({ address, status: 'dropped' }))).toMatchObject({
      result: 'credited',
    });
    expect(await engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('B4 a deposit reorganised away before confirmation is dropped; included again, it is credited once', async () => {
    const { engine, address, available, deposits } = await live();
    const ops = engine.operations;
    const txHash = '0x' + 'b2'.repeat(32);
    await ops.recordChainDeposit(obs({ address, txHash }));
    expect(await ops.recordChainDeposit(obs({ address, txHash, status: 'dropped' }))).toMatchObject({
      result: 'dropped',
    });
    expect(await ops.recordChainDeposit(obs({ address, txHash, status: 'dropped' }))).toMatchObject({
      result: 'dropped',
    });
    expect(await available()).toBe('0');
    expect(await deposits()).toMatchObject([{ status: 'rejected' }]);
    // The same transfer mined again in a replacement block: a new pending record, credited once.
    await ops.recordChainDeposit(obs({ address, txHash, blockNumber: 101 }));
    for (let i = 0; i < 2; i++) {
      await ops.recordChainDeposit(
        obs({ address, txHash, blockNumber: 101, confirmations: 12, status: 'confirmed' }),
      );
    }
    expect(await available()).toBe('25');
    expect((await deposits()).map((d) => d['status'])).toEqual(['success', 'rejected']);
    expect(await engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('B4 ignores addresses nobody was given and refuses malformed reports', async () => {
    const { engine, address } = await live();
    const ops = engine.operations;
    const stranger = '0x' + '12'.repeat(20);
    expect(await ops.recordChainDeposit(obs({ address: stranger }))).toEqual({ result: 'ignored' });
    await expect(ops.recordChainDeposit(obs({ address, txHash: 'nope' }))).rejects.toThrow(/hash/);
    await expect(ops.recordChainDeposit(obs({ address, amount: 0n }))).rejects.toThrow(/amount/);
    await expect(ops.recordChainDeposit(obs({ address, logIndex: -1 }))).rejects.toThrow(/log index/);
    await expect(ops.recordChainDeposit(obs({ address: 'T' + '1'.repeat(33) }))).rejects.toThrow();
    expect(await engine.diagnostics.rebuildBalances()).toEqual(new Map());
  });
});

describe('engine operations: approved withdrawals are claimed once', () => {
  it('B2 a claimed withdrawal cannot be claimed again nor rejected until released', async () => {
    const l = await openLive(10);
    const ann = await liveMember(l, 'ann');
    const dep = await l.call(
      '/api/recharge/submit',
      { network: 'TRC20', amount: '100', txid: '9a'.repeat(32) },
      ann,
    );
    await l.engine.operations.creditDeposit(dep.data.id);
    const w = await l.call(
      '/api/withdraw/submit',
      {
        currency: 'USDT',
        network: 'TRC20',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        amount: '40',
        key: 'key1',
      },
      ann,
    );
    const id = w.data.id;
    expect(await l.engine.operations.claimWithdrawal(id)).toEqual({
      id,
      network: 'TRC20',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      amount: 39_000_000n,
    });
    expect(await l.engine.operations.claimWithdrawal(id)).toBeNull();
    await expect(l.engine.operations.rejectWithdrawal(id, 'late')).rejects.toThrow(/being sent/);
    expect(await l.engine.operations.releaseWithdrawal(id)).toBe(true);
    expect(await l.engine.operations.releaseWithdrawal(id)).toBe(false);
    expect(await l.engine.operations.claimWithdrawal('nope')).toBeNull();
    expect(await l.engine.operations.depositAddresses('TRC20')).toEqual([]);
    await l.call('/api/recharge/address', { network: 'TRC20' }, ann);
    expect(await l.engine.operations.depositAddresses('TRC20')).toHaveLength(1);
    expect(await l.engine.operations.depositAddresses('ERC20')).toEqual([]);
  });
});
