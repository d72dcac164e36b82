import { describe, expect, it } from 'vitest';
import { parseAmount as m } from '../money';
import {
  bandOf,
  crossAt,
  crossView,
  positionsAtMark,
  unrealisedTotalAt,
  type PositionAtMark,
} from './position-figures';
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
      // 24.4 / 700 = 3.4857%, rounded up.
      ratioBps: 349n,
      // (0.1 x 60,000 - 600) / (0.1 x (1 - 0.004)) = 54,216.8674698..., rounded up.
      liquidation: m('54216.86747'),
    });
  });

  it('cross positions back each other with the free balance, less the others maintenance', () => {
    const cross = { ...btc, marginMode: 'cross' as const };
    const all = positionsAtMark([cross, eth], m('1000'), markOf);
    // A cross position's margin balance is the cross account's: 1,000 free + 600 + 300 margins + 100 - 100.
    expect(all.get('1')?.balance).toBe(m('1900'));
    // Account ratio: (24.4 + 12.4) / 1,900 = 1.9368%, rounded up; the same on both positions.
    expect(all.get('1')?.ratioBps).toBe(194n);
    expect(all.get('2')?.ratioBps).toBe(194n);
    // BTC's backing: 1,900 + ETH's PnL (-100) - ETH's maintenance (3,100 x 0.4% = 12.4) = 1,787.6.
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

describe('the cross account (Binance "How to Calculate Liquidation Price of USDⓈ-M Futures Contracts", hedge mode)', () => {
  const btcMark = m('87000');
  const at = (symbol: string) => (symbol === 'BTC/USDT' ? btcMark : (marks[symbol] ?? 0n));
  const leg = (id: string, side: 'long' | 'short', entry: string): PositionAtMark => ({
    id,
    symbol: 'BTC/USDT',
    side,
    marginMode: 'cross',
    volume: m('0.02'),
    entryPrice: m(entry),
    margin: m('17.4'),
  });

  it('a flat hedged book is liquidated only when its maintenance outgrows the equity, far above: both legs show one price', () => {
    // 40 USDT, 100x: long and short 0.02 BTC at 87,000 (margin 17.4 each), fees 0.87 each: 38.26 USDT.
    const open = [leg('1', 'long', '87000'), leg('2', 'short', '87000')];
    const free = m('38.26') - m('34.8');
    const f = positionsAtMark(open, free, at);
    // WB + QL(P - EP) + QS(EP - P) = QL P 0.4% + QS P 0.4%: 38.26 = 0.00016 P -> P = 239,125.
    expect(f.get('1')?.liquidation).toBe(m('239125'));
    expect(f.get('2')?.liquidation).toBe(m('239125'));
    // Account ratio: 2 x 1,740 x 0.4% = 13.92 / 38.26 = 36.38%.
    expect(f.get('1')?.ratioBps).toBe(3639n);
    expect(crossView(crossAt(open, free, at))).toEqual({
      walletBalance: '38.26',
      unrealisedPnl: '0',
      maintenanceMargin: '13.92',
      marginRatio: '36.39',
    });
  });

  it('a hedged book with an unequal short: one price for the pair, where its maintenance and losses meet the equity', () => {
    const long = { ...leg('1', 'long', '87000'), volume: m('0.02') };
    const short = { ...leg('2', 'short', '86000'), volume: m('0.01'), margin: m('8.6') };
    const band = bandOf(long, [long, short], m('100'), at).band;
    // Net long 0.01: (QL EPL - QS EPS - WB) / (QL (1 - 0.4%) - QS (1 + 0.4%)), WB = 100 + 17.4 + 8.6 = 126.
    // (1,740 - 860 - 126) / (0.01992 - 0.01004) = 754 / 0.00988 = 76,315.789474 (rounded up).
    expect(band.below).toBe(m('76315.789474'));
    // A net-long book grows its maintenance faster than its PnL only past the 50% tier: none above in range.
    expect(positionsAtMark([long, short], m('100'), at).get('2')?.liquidation).toBe(m('76315.789474'));
  });

  it('other pairs are held at their marks: their PnL less maintenance backs the pair', () => {
    const eth: PositionAtMark = {
      id: '3',
      symbol: 'ETH/USDT',
      side: 'short',
      marginMode: 'cross',
      volume: m('1'),
      entryPrice: m('3000'),
      margin: m('30'),
    };
    const long = leg('1', 'long', '87000');
    // WB = 10 + 17.4 + 30 = 57.4; ETH at 3,100: PnL -100, maintenance 12.4: backing -55.
    // (1,740 + 55) / (0.02 x 0.996) = 90,110.441767 (rounded up) - above the mark: liquidatable now.
    expect(bandOf(long, [long, eth], m('10'), at).band.below).toBe(m('90110.441768'));
  });
});

describe('tiers past the last bracket (K10)', () => {
  it('an isolated SOL short whose liquidation notional is past the last bracket uses the last tier (50%, cum 10,062,545)', () => {
    const sol: PositionAtMark = {
      id: '1',
      symbol: 'SOL/USDT',
      side: 'short',
      marginMode: 'isolated',
      volume: m('195374.127736'),
      entryPrice: m('132.346522'),
      margin: m('54558452.08'),
    };
    const f = positionsAtMark([sol], 0n, () => m('132.346522')).get('1');
    // (Q x EP + WB + cum) / (Q x 1.5) = 308.7344417..., rounded down (the entry tier gave 339.771020).
    expect(f?.liquidation).toBe(m('308.734441'));
  });
});
