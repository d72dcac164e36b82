/**
 * server/chain/watcher.ts with stand-in gateways: an approved withdrawal is claimed once; a send refused
 * before or by the broadcast releases it (it can be approved again or rejected); a broadcast with no answer
 * keeps it claimed, neither re-sendable nor rejectable, until the chain is checked for the known hash.
 */
import { describe, expect, it } from 'vitest';
import { BroadcastUncertainError, type ChainGateway } from '../../../server/chain/gateway';
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
  await l.engine.operations.creditDeposit((dep.data as { id: string }).id);
  const w = await l.call(
    '/api/withdraw/submit',
    { currency: 'USDT', network: 'TRC20', address: OUTSIDE, amount: '30', key: 'key1' },
    ann,
  );
  return { l, ann, id: (w.data as { id: string }).id };
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
    const list = (await l.call('/api/withdraw/list', {}, ann)).data as {
      list: Array<Record<string, unknown>>;
    };
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
    const me = (await l.call('/api/user/getuser', {}, ann)).data as { available: string; frozen: string };
    expect(me).toMatchObject({ available: '70', frozen: '30' });
    // Found on chain under the known hash: recorded.
    expect(await l.engine.operations.completeWithdrawal(id, 'cd'.repeat(32))).toBe(true);
  });
});
