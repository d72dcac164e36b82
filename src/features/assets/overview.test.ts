/** Today's PnL on /user (docs/SPEC.md §12): per position from 00:00 UTC, exact to the micro-USDT. */
import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../../engine/index';
import { startOfDay, todayPnl } from './overview';

const DAY = Date.UTC(2026, 10, 28); // 00:00 UTC
const sec = (ms: number) => ms / 1000;

function position(p: Partial<PositionRecord>): PositionRecord {
  return {
    id: '1',
    symbol: 'BTC/USDT',
    side: 'long',
    volume: '0.5',
    entryPrice: '90000',
    leverage: 10,
    marginMode: 'cross',
    margin: '4500',
    fundingPaid: '0',
    status: 'open',
    openTime: sec(DAY - 3_600_000),
    closeTime: null,
    realisedPnl: '0',
    fees: '0',
    ...p,
  };
}

describe("today's PnL", () => {
  it('starts at 00:00 UTC', () => {
    expect(startOfDay(DAY + 23 * 3_600_000 + 59_000)).toBe(DAY);
  });

  it('an open long held over midnight moves from the 00:00 mark, less funding paid today', () => {
    const marks = new Map([['BTC/USDT', '91234.567891']]);
    const funding = [
      { positionId: '1', time: sec(DAY - 8 * 3_600_000), markPrice: '89000', amount: '4.5' },
      { positionId: '1', time: sec(DAY), markPrice: '90500.1', amount: '4.525005' },
    ];
    // (91,234.567891 - 90,500.1) x 0.5 = 367.2339455 -> 367.233945 (toward zero), less 4.525005 paid at 00:00.
    expect(todayPnl([position({})], [], DAY, funding, marks)).toBe('362.70894');
  });

  it('a short opened today moves from its entry, less its fees; a closed one counts net; earnings add', () => {
    const marks = new Map([['ETH/USDT', '3010.25']]);
    const short = position({
      id: '2',
      symbol: 'ETH/USDT',
      side: 'short',
      volume: '1.2345',
      entryPrice: '3000',
      openTime: sec(DAY + 3_600_000),
      fees: '1.85175',
    });
    const closed = position({
      id: '3',
      status: 'closed',
      closeTime: sec(DAY + 7_200_000),
      realisedPnl: '25.5',
      fees: '0.75',
      fundingPaid: '-0.125',
    });
    const closedYesterday = position({
      id: '4',
      status: 'closed',
      closeTime: sec(DAY - 1),
      realisedPnl: '99',
    });
    const earnings = [{ id: '9', amount: '0.136986', time: sec(DAY + 60) }];
    // Short: -(3,010.25 - 3,000) x 1.2345 = -12.6536250 -> -12.653625, less fees 1.85175 = -14.505375;
    // closed: 25.5 - 0.75 + 0.125 = 24.875; earnings 0.136986: total 10.506611.
    expect(todayPnl([short, closed, closedYesterday], earnings, DAY, [], marks)).toBe('10.506611');
  });

  it('without the 00:00 funding recorded yet, an older position counts from its entry; no mark, no move', () => {
    const marks = new Map([['BTC/USDT', '90001']]);
    expect(todayPnl([position({})], [], DAY, [], marks)).toBe('0.5');
    expect(todayPnl([position({})], [], DAY, [], new Map())).toBe('0');
  });
});
