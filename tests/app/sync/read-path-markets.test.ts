/**
 * Y9 for the member's trading and referral data: the figures the device computes from its replica (open
 * positions at the quotes' marks, the sub-accounts, the invitation summary) equal what the server answers for
 * the same state, to the micro-unit, because both run the engine's own livePositions, assetsView and
 * inviteSummary.
 */
import { describe, expect, it } from 'vitest';
import type { BodyOf, ContractPath, DataOf, InviteeRecord, PositionRecord } from '../../../engine/index';
import { readTables } from '../../../src/sync/live';
import {
  assetsFromReplica,
  inviteFromReplica,
  positionsFromReplica,
  type ReplicaBalance,
  type ReplicaProfile,
  type ReplicaProfit,
} from '../../../src/sync/member-views';
import { fund, signUp, type Session } from '../../engine/harness';
import { pair, syncHarness, type SyncHarness } from '../../engine/sync-kit';
import { device } from './device-kit';

async function ok<P extends ContractPath>(
  h: SyncHarness,
  path: P,
  body: BodyOf<P>,
  s: Session,
): Promise<DataOf<P>> {
  const r = await h.call(path, body, s);
  if (r.code !== 0) throw new Error(`${path}: ${r.code} ${r.msg}`);
  return r.data;
}

type Order = BodyOf<'/api/order/place'>;

const contract = (symbol: string, side: Order['side'], volume: string, extra: Partial<Order>): Order => ({
  symbol,
  market: 'contract',
  side,
  type: 'market',
  volume,
  ...extra,
});

describe('the device read path for markets and referrals (docs/RULES.md Y9)', () => {
  it('Y9 positions, sub-accounts and the invitation summary from the replica equal the server answers', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h, '20000');
    await ok(h, '/api/account/transfer', { from: 'cash', to: 'contract', amount: '8000' }, alice);
    await ok(
      h,
      '/api/order/place',
      contract('BTC/USDT', 'open_long', '0.05', { leverage: 10, marginMode: 'cross' }),
      alice,
    );
    await ok(
      h,
      '/api/order/place',
      contract('ETH/USDT', 'open_short', '1.5', { leverage: 10, marginMode: 'cross' }),
      alice,
    );
    await ok(
      h,
      '/api/order/place',
      contract('SOL/USDT', 'open_long', '3', { leverage: 10, marginMode: 'cross' }),
      alice,
    );
    // An invitee trades: a share of the fee is alice's.
    const { inviteCode } = await ok(h, '/api/user/getuser', undefined, alice);
    const carol = await signUp(h, 'carol', { invite: inviteCode });
    await fund(h, carol.id, '1000');
    await ok(
      h,
      '/api/order/place',
      { symbol: 'ETH/USDT', market: 'spot', side: 'buy', volume: '0.1' },
      carol,
    );
    await ok(h, '/api/account/transfer', { from: 'cash', to: 'fund', amount: '12.5' }, alice);
    h.clock.advance(7 * 60_000);

    const d = device(h, alice);
    await d.sync.pull();
    const { tables } = await readTables(d.db, alice.id, [
      'members',
      'balances',
      'positions',
      'invitees',
      'profitLog',
    ]);
    const balances = tables.balances as ReplicaBalance[];
    const positions = tables.positions as PositionRecord[];
    const quotes = (await ok(h, '/api/market/list', undefined, alice)).list;

    const server = (await ok(h, '/api/position/list', {}, alice)).list;
    expect(server).toHaveLength(3);
    const withoutPrices = server.map(({ indexPrice: _i, lastPrice: _l, ...rest }) => rest);
    expect(positionsFromReplica(positions, balances, quotes)).toEqual(withoutPrices);
    // Cross positions back each other: every figure depends on the others' marks and the free balance.
    expect(server.every((p) => p.marginMode === 'cross')).toBe(true);

    const assets = await ok(h, '/api/account/assets', undefined, alice);
    expect(assetsFromReplica(balances, positions, quotes)).toEqual(assets);
    expect(assets.accounts.find((a) => a.account === 'contract')?.unrealisedPnl).not.toBe('0');

    const invite = await ok(h, '/api/user/invite', undefined, alice);
    expect(
      inviteFromReplica(
        tables.members?.[0] as ReplicaProfile,
        tables.invitees as InviteeRecord[],
        tables.profitLog as ReplicaProfit[],
      ),
    ).toEqual(invite);
    expect(invite.downline.map((m) => m.username)).toEqual(['ca***ol']);
    expect(invite.earnings).not.toBe('0');

    // A closed position leaves the list on both sides; the replica keeps it as closed.
    await ok(h, '/api/order/place', contract('SOL/USDT', 'close_long', '3', {}), alice);
    await d.sync.pull();
    const after = await readTables(d.db, alice.id, ['balances', 'positions']);
    const serverAfter = (await ok(h, '/api/position/list', {}, alice)).list;
    expect(
      positionsFromReplica(
        after.tables.positions as PositionRecord[],
        after.tables.balances as ReplicaBalance[],
        quotes,
      ),
    ).toEqual(serverAfter.map(({ indexPrice: _i, lastPrice: _l, ...rest }) => rest));
    expect(serverAfter).toHaveLength(2);
    expect((after.tables.positions as PositionRecord[]).find((p) => p.symbol === 'SOL/USDT')?.status).toBe(
      'closed',
    );
  });
});
