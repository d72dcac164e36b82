import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { crossFromReplica, type ReplicaBalance } from '../../sync/member-views';
import type { PositionRecord, Quote } from '../../../engine/index';
import { CrossAccount } from './CrossAccount';

const leg = (id: string, side: 'long' | 'short'): PositionRecord =>
  ({
    id,
    symbol: 'BTC/USDT',
    side,
    volume: '0.02',
    entryPrice: '87000',
    leverage: 100,
    marginMode: 'cross',
    margin: '17.4',
    fundingPaid: '0',
    status: 'open',
    openTime: 1_700_000_000,
  }) as PositionRecord;

beforeAll(async () => {
  await initI18n('en-US');
});

describe('CrossAccount', () => {
  it('shows the one account margin ratio the engine computes from the replica (a hedged 0.02 BTC book on 38.26 USDT)', () => {
    const balances = [{ sub: 'contract', asset: 'USDT', amount: '3.46', frozen: false }] as ReplicaBalance[];
    const quotes = [{ symbol: 'BTC/USDT', base: 'BTC', latest: '87000', markPrice: '87000' }] as Quote[];
    const cross = crossFromReplica([leg('1', 'long'), leg('2', 'short')], balances, quotes);
    // 2 x 1,740 x 0.4% = 13.92 over 3.46 + 34.8 = 38.26: 36.39% (rounded up).
    expect(cross).toEqual({
      walletBalance: '38.26',
      unrealisedPnl: '0',
      maintenanceMargin: '13.92',
      marginRatio: '36.39',
    });
    render(<CrossAccount cross={cross} />);
    const region = screen.getByRole('region', { name: 'Cross margin account' });
    expect(region.textContent).toContain('Account margin ratio');
    expect(region.textContent).toContain('36.39%');
    expect(region.textContent).toContain('38.26');
    expect(region.textContent).toContain('13.92');
  });
});
