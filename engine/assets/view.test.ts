import { describe, expect, it } from 'vitest';
import { parseAmount as m } from '../money';
import { assetsView } from './view';

describe('the sub-accounts view (worked example)', () => {
  it('groups balances by account, values coins at the price given and adds the contract PnL', () => {
    const prices: Record<string, bigint> = { BTC: m('60000') };
    const view = assetsView(
      [
        { sub: 'cash', frozen: false, asset: 'USDT', amount: m('100') },
        { sub: 'cash', frozen: true, asset: 'USDT', amount: m('25') },
        { sub: 'cash', frozen: false, asset: 'BTC', amount: m('0.000017') },
        { sub: 'contract', frozen: false, asset: 'USDT', amount: m('50') },
        { sub: 'contract', frozen: true, asset: 'USDT', amount: m('600') },
        { sub: 'unknown', frozen: false, asset: 'USDT', amount: m('1') },
      ],
      -m('700'),
      (asset) => prices[asset] ?? 0n,
    );
    const [cash, fund, contract] = view.accounts;
    expect(cash).toEqual({
      account: 'cash',
      available: '100',
      frozen: '25',
      assets: [
        { asset: 'USDT', available: '100', frozen: '25', valuation: '125' },
        // 0.000017 x 60,000 = 1.02
        { asset: 'BTC', available: '0.000017', frozen: '0', valuation: '1.02' },
      ],
      unrealisedPnl: '0',
      valuation: '126.02',
    });
    expect(fund).toMatchObject({ account: 'fund', available: '0', assets: [], valuation: '0' });
    // 650 - 700 would be negative: an account is worth at least 0.
    expect(contract).toMatchObject({ available: '50', frozen: '600', unrealisedPnl: '-700', valuation: '0' });
    expect(view.accounts.map((a) => a.account)).toEqual(['cash', 'fund', 'contract', 'options', 'financial']);
    expect(view.totalAssets).toBe('126.02');
    expect(view.valuation).toBe('126.02');
  });
});
