import { describe, expect, it } from 'vitest';
import { parseAmount as m } from '../money';
import { positionsAtMark, unrealisedTotalAt, type PositionAtMark } from './position-figures';
import { livePositions, positionRecord, type PositionRecord } from './views';
import type { PositionRow } from './tables';

const marks: Record<string, bigint> = { 'BTC/USDT': m('61000'), 'ETH/USDT': m('3100') };
const markOf = (symbol: string) => marks[symbol] ?? 0n;

const btc: PositionAtMark = {
  id: '1',
  symbol: 'BTC/USDT',
  side: 'long',
  marginMode: 'isolated',
  volume: m('0.1'),
  entryPrice: m('60000'),
  margin: m('600'),
};
const eth: PositionAtMark = {
  id: '2',
  symbol: 'ETH/USDT',
  side: 'short',
  marginMode: 'cross',
  volume: m('1'),
  entryPrice: m('3000'),
  margin: m('300'),
};

describe('positions at the mark (K2-K4, K10; worked examples)', () => {
  it('an isolated 0.1 BTC long from 60,000 at a 61,000 mark', () => {
    const f = positionsAtMark([btc], m('1000'), markOf).get('1');
    // PnL (61,000 - 60,000) x 0.1 = 100; notional 6,100 is tier 1 (0.40%): maintenance 24.4.
    expect(f).toEqual({
      mark: m('61000'),
      pnl: m('100'),
      maintenance: m('24.4'),
      maintenanceBps: 40,
      // Isolated: only its margin backs it (the free 1,000 does not).
      balance: m('700'),
      // (0.1 x 60,000 - 600) / (0.1 x (1 - 0.004)) = 54,216.8674698..., rounded up.
      liquidation: m('54216.86747'),
    });
  });

  it('cross positions back each other with the free balance, less the others maintenance', () => {
    const cross = { ...btc, marginMode: 'cross' as const };
    const all = positionsAtMark([cross, eth], m('1000'), markOf);
    // BTC: 1,000 free + 600 + 300 margins + ETH's PnL (-100) - ETH's maintenance (3,100 x 0.4% = 12.4).
    expect(all.get('1')?.balance).toBe(m('1787.6') + m('100'));
    // (6,000 - 1,787.6) / 0.0996 = 42,293.1726907..., rounded up.
    expect(all.get('1')?.liquidation).toBe(m('42293.172691'));
    // ETH short: 1,000 + 900 + BTC's 100 - 24.4 = 1,975.6; (3,000 + 1,975.6) / 1.004, rounded down.
    expect(all.get('2')?.pnl).toBe(-m('100'));
    expect(all.get('2')?.liquidation).toBe(m('4955.776892'));
    expect(unrealisedTotalAt([cross, eth], markOf)).toBe(0n);
  });

  it('livePositions values the open records of a replica and formats them as /api/position/list does', () => {
    const row: PositionRow = {
      id: '7',
      memberId: '9',
      symbol: 'BTC/USDT',
      side: 'long',
      volume: '100000',
      entryPrice: '60000000000',
      leverage: 10,
      marginMode: 'isolated',
      margin: '600000000',
      holdId: 'h',
      status: 'open',
      openedAt: 1_700_000_000_000,
      closedAt: null,
      realisedPnl: '0',
      fees: '3600000',
      liquidationPrice: null,
      fundingPaid: '-1250000',
    };
    const record = positionRecord(row);
    expect(record).toMatchObject({ volume: '0.1', entryPrice: '60000', margin: '600', fundingPaid: '-1.25' });
    const closed: PositionRecord = { ...record, id: '6', status: 'closed' };
    const [live, ...rest] = livePositions([record, closed], m('1000'), markOf);
    expect(rest).toEqual([]);
    expect(live).toMatchObject({
      id: '7',
      markPrice: '61000',
      unrealisedPnl: '100',
      maintenanceMargin: '24.4',
      // 24.4 / 700 = 3.4857%, rounded up to 3.49.
      marginRatio: '3.49',
      maintenanceRate: '0.40',
      liquidationPrice: '54216.86747',
      fundingPaid: '-1.25',
      openTime: 1_700_000_000,
    });
  });
});
