/**
 * server/chain/watcher.ts with stand-in gateways: an approved withdrawal is claimed once; a send refused
 * before or by the broadcast releases it (it can be approved again or rejected); a broadcast with no answer
 * keeps it claimed, neither re-sendable nor rejectable, until the chain is checked for the known hash; the
 * reconciler (server/chain/reconciler.ts) then completes, releases or leaves it from what the chain says.
 */
import { describe, expect, it } from 'vitest';
import { BroadcastUncertainError, type ChainGateway, type SentStatus } from '../../../server/chain/gateway';
import { reconcileRound, watchSends } from '../../../server/chain/reconciler';
import { sendApprovedWithdrawal } from '../../../server/chain/watcher';
import { liveMember, openLive } from '../live';

const OUTSIDE = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

function standIn(send: ChainGateway['sendWithdrawal']): ChainGateway {
  return {
    network: 'TRC20',
    confirmations: 19,
    watch: () => undefined,
    poll: async () => [],
    sendWithdrawal: send,
    estimateFee: async () => ({ asset: 'TRX', amount: 0n, units: 0n }),
  };
}

async function pendingWithdrawal() {
  const l = await openLive(12);
  const ann = await liveMember(l, 'ann');
  const dep = await l.call(
    '/api/recharge/submit',
    { network: 'TRC20', amount: '100', txid: '7c'.repeat(32) },
    ann,
  );
  await l.engine.operations.creditDeposit(dep.data.id);
  const w = await l.call(
    '/api/withdraw/submit',
    { currency: 'USDT', network: 'TRC20', address: OUTSIDE, amount: '30', key: 'key1' },
    ann,
  );
  return { l, ann, id: w.data.id };
}

describe('sending approved withdrawals', () => {
  it('a refused send releases the claim; a later approval sends it once', async () => {
    const { l, ann, id } = await pendingWithdrawal();
    const refused = standIn(async () => {
      throw new Error('node refused: insufficient energy');
    });
    await expect(sendApprovedWithdrawal({ TRC20: refused }, l.engine.operations, id)).rejects.toThrow(
      /energy/,
    );
    const sends: Array<{ to: string; amount: bigint }> = [];
    const ok = standIn(
      async (r) => (sends.push({ to: r.to, amount: r.amount }), { txHash: 'ab'.repeat(32) }),
    );
    expect(await sendApprovedWithdrawal({ TRC20: ok }, l.engine.operations, id)).toEqual({
      sent: true,
      txHash: 'ab'.repeat(32),
    });
    expect(await sendApprovedWithdrawal({ TRC20: ok }, l.engine.operations, id)).toMatchObject({
      sent: false,
    });
    expect(sends).toEqual([{ to: OUTSIDE, amount: 29_000_000n }]);
    const list = (await l.call('/api/withdraw/list', {}, ann)).data;
    expect(list.list[0]).toMatchObject({ status: 'success', txid: 'ab'.repeat(32) });
  });

  it('an unanswered broadcast keeps the withdrawal claimed: not sent again, not rejectable', async () => {
    const { l, ann, id } = await pendingWithdrawal();
    let calls = 0;
    const silent = standIn(async () => {
      calls++;
      throw new BroadcastUncertainError('cd'.repeat(32), new Error('socket hang up'));
    });
    await expect(sendApprovedWithdrawal({ TRC20: silent }, l.engine.operations, id)).rejects.toMatchObject({
      txHash: 'cd'.repeat(32),
    });
    expect(await sendApprovedWithdrawal({ TRC20: silent }, l.engine.operations, id)).toEqual({
      sent: false,
      reason: 'not-claimable',
    });
    expect(calls).toBe(1);
    await expect(l.engine.operations.rejectWithdrawal(id, 'changed my mind')).rejects.toThrow(/being sent/);
    const me = (await l.call('/api/user/getuser', undefined, ann)).data;
    expect(me).toMatchObject({ available: '70', frozen: '30' });
    // Found on chain under the known hash: recorded.
    expect(await l.engine.operations.completeWithdrawal(id, 'cd'.repeat(32))).toBe(true);
  });
});

describe('the reconciler of uncertain broadcasts', () => {
  const hash = (n: number) => n.toString(16).padStart(2, '0').repeat(32);

  /** A member with 100 USDT and `count` pending withdrawals of 10 each. */
  async function withdrawals(count: number) {
    const l = await openLive(13);
    const ann = await liveMember(l, 'ann');
    const dep = await l.call(
      '/api/recharge/submit',
      { network: 'TRC20', amount: '100', txid: '7d'.repeat(32) },
      ann,
    );
    await l.engine.operations.creditDeposit(dep.data.id);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const w = await l.call(
        '/api/withdraw/submit',
        { currency: 'USDT', network: 'TRC20', address: OUTSIDE, amount: '10', key: 'key1' },
        ann,
      );
      ids.push(w.data.id);
    }
    const status = async () =>
      new Map((await l.call('/api/withdraw/list', {}, ann)).data.list.map((w) => [String(w.id), w]));
    return { l, ann, ids, status };
  }

  it('completes mined ones once confirmed, releases failed and never-minable ones, leaves the rest', async () => {
    const { l, ann, ids, status } = await withdrawals(6);
    const [mined, shallow, failed, replaced, pooled, unsigned] = ids as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // Each broadcast goes unanswered after the gateway recorded its hash (onSigned, before broadcasting).
    const uncertain = standIn(async (r) => {
      const txHash = hash(ids.indexOf(r.id) + 1);
      await r.onSigned?.({ txHash, nonce: null });
      throw new BroadcastUncertainError(txHash, new Error('timeout'));
    });
    for (const id of [mined, shallow, failed, replaced, pooled])
      await expect(sendApprovedWithdrawal({ TRC20: uncertain }, l.engine.operations, id)).rejects.toThrow(
        BroadcastUncertainError,
      );
    // Claimed by an approval whose process stopped before signing: nothing recorded.
    expect(await l.engine.operations.claimWithdrawal(unsigned)).not.toBeNull();
    const sending = await l.engine.operations.sendingWithdrawals('TRC20');
    expect(sending.map((w) => [w.id, w.broadcast?.txHash ?? null])).toEqual([
      [mined, hash(1)],
      [shallow, hash(2)],
      [failed, hash(3)],
      [replaced, hash(4)],
      [pooled, hash(5)],
      [unsigned, null],
    ]);
    expect(sending[0]).toMatchObject({ network: 'TRC20', address: OUTSIDE, amount: 9_000_000n });
    expect(await l.engine.operations.sendingWithdrawals('ERC20')).toEqual([]);

    const chain = new Map<string, SentStatus>([
      [hash(1), { state: 'mined', success: true, confirmations: 19, blockNumber: 100 }],
      [hash(2), { state: 'mined', success: true, confirmations: 3, blockNumber: 116 }],
      [hash(3), { state: 'mined', success: false, confirmations: 19, blockNumber: 100 }],
      [hash(4), { state: 'absent', final: true }],
      [hash(5), { state: 'pending' }],
    ]);
    const asked: string[] = [];
    const gateway: ChainGateway = {
      ...standIn(async () => ({ txHash: hash(99) })),
      sentStatus: async (sent) => {
        asked.push(sent.txHash);
        return chain.get(sent.txHash) ?? { state: 'absent', final: false };
      },
    };
    const round = await reconcileRound(gateway, l.engine.operations);
    expect(round.map((o) => [o.withdrawalId, o.action])).toEqual([
      [mined, 'completed'],
      [shallow, 'waiting'],
      [failed, 'released'],
      [replaced, 'released'],
      [pooled, 'waiting'],
      [unsigned, 'waiting'],
    ]);
    expect(round[1]?.reason).toMatch(/3 of 19 confirmations/);
    expect(round[5]).toMatchObject({ txHash: null, status: null, reason: /signer journal/ });
    expect(asked).toEqual([hash(1), hash(2), hash(3), hash(4), hash(5)]);
    let now = await status();
    expect(now.get(mined)).toMatchObject({ status: 'success', txid: hash(1) });
    // Released: back to review (pending, no longer being sent), so an operator can reject them.
    expect(await l.engine.operations.rejectWithdrawal(failed, 'Transfer failed on chain')).toBe(true);
    expect(await l.engine.operations.rejectWithdrawal(replaced, 'Transaction replaced')).toBe(true);
    await expect(l.engine.operations.rejectWithdrawal(shallow, 'no')).rejects.toThrow(/being sent/);

    // Deep enough later: completed; the pool one mined too. Nothing is completed twice.
    chain.set(hash(2), { state: 'mined', success: true, confirmations: 19, blockNumber: 116 });
    chain.set(hash(5), { state: 'mined', success: true, confirmations: 25, blockNumber: 110 });
    expect((await reconcileRound(gateway, l.engine.operations)).map((o) => o.action)).toEqual([
      'completed',
      'completed',
      'waiting',
    ]);
    now = await status();
    expect(now.get(shallow)).toMatchObject({ status: 'success', txid: hash(2) });
    expect(now.get(pooled)).toMatchObject({ status: 'success', txid: hash(5) });
    // Three of 10 sent, two rejected (unfrozen), one still being sent.
    const me = (await l.call('/api/user/getuser', undefined, ann)).data;
    expect(me).toEqual(expect.objectContaining({ available: '60', balance: '70', frozen: '10' }));
    expect(await l.engine.diagnostics.checkInvariants()).toEqual([]);
    // A gateway that cannot say where a transaction stands reconciles nothing.
    expect(
      await reconcileRound(
        standIn(async () => ({ txHash: hash(9) })),
        l.engine.operations,
      ),
    ).toEqual([]);
  });

  it('a failure to record the hash sends nothing and releases the claim', async () => {
    const { l, ids } = await withdrawals(1);
    let broadcasts = 0;
    const gateway = standIn(async (r) => {
      await r.onSigned?.({ txHash: 'not a hash', nonce: null });
      broadcasts++;
      return { txHash: hash(1) };
    });
    await expect(
      sendApprovedWithdrawal({ TRC20: gateway }, l.engine.operations, ids[0] ?? ''),
    ).rejects.toThrow(/Invalid transaction hash/);
    expect(broadcasts).toBe(0);
    expect(await l.engine.operations.sendingWithdrawals('TRC20')).toEqual([]);
  });

  it('the background round runs on the lease holder only, logs each decision once, never overlaps', async () => {
    const { l, ids } = await withdrawals(2);
    const [first, second] = ids as [string, string];
    const uncertain = standIn(async (r) => {
      await r.onSigned?.({ txHash: hash(ids.indexOf(r.id) + 1), nonce: null });
      throw new BroadcastUncertainError(hash(ids.indexOf(r.id) + 1), new Error('timeout'));
    });
    for (const id of ids)
      await sendApprovedWithdrawal({ TRC20: uncertain }, l.engine.operations, id).catch(() => undefined);
    let state: SentStatus = { state: 'pending' };
    const gateway: ChainGateway = {
      ...uncertain,
      sentStatus: async (sent) => (sent.txHash === hash(1) ? state : { state: 'absent', final: false }),
    };
    const lines: Array<[string, Record<string, unknown>]> = [];
    const write = (o: object, msg: string) => {
      lines.push([msg, o as Record<string, unknown>]);
    };
    const log = { info: write, warn: write, error: write };
    let leader = false;
    const reconciler = watchSends({
      gateways: [gateway],
      operations: l.engine.operations,
      mayRun: async () => leader,
      everyMs: 0,
      log,
    });
    expect(await reconciler.round()).toEqual([]);
    leader = true;
    const [a, b] = [reconciler.round(), reconciler.round()];
    expect(a).toBe(b);
    expect((await a).map((o) => o.action)).toEqual(['waiting', 'waiting']);
    await reconciler.round();
    // Waiting is logged once per reason, not every round.
    expect(lines.map(([msg, o]) => [msg, o['withdrawalId']])).toEqual([
      ['chain send uncertain', first],
      ['chain send uncertain', second],
    ]);
    state = { state: 'mined', success: true, confirmations: 30, blockNumber: 1 };
    await reconciler.round();
    expect(lines.at(-1)).toEqual([
      'chain send reconciled',
      expect.objectContaining({ withdrawalId: first, action: 'completed', txHash: hash(1) }),
    ]);
    await reconciler.close();
    expect(await reconciler.round()).toEqual([]);
  });
});
