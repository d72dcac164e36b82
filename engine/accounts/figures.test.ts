import { describe, expect, it } from 'vitest';
import { parseAmount } from '../money';
import { memberFigures, type BalanceFigure } from './figures';

const row = (sub: string, frozen: boolean, amount: string, asset = 'USDT'): BalanceFigure => ({
  sub,
  frozen,
  asset,
  amount: parseAmount(amount),
});

describe("getuser's figures (one function for engine and device)", () => {
  it('balance is cash available + frozen; totalAssets is USDT across every sub-account', () => {
    expect(
      memberFigures([
        row('cash', false, '10.000001'),
        row('cash', true, '2.5'),
        row('fund', false, '5'),
        row('options', true, '1'),
        row('contract', false, '0.25'),
        row('financial', false, '100'),
        row('cash', false, '7', 'TRX'),
        row('bonus', false, '999'),
      ]),
    ).toEqual({ balance: '12.500001', available: '10.000001', frozen: '2.5', totalAssets: '118.750001' });
  });

  it('no balances: zeros, not empty strings', () => {
    expect(memberFigures([])).toEqual({ balance: '0', available: '0', frozen: '0', totalAssets: '0' });
  });
});
