import { describe, expect, it } from 'vitest';
import { validateAddress } from '../chain/validate';
import { DEFAULT_DENY_LIST, defaultConfig as WITHDRAW_DEFAULTS } from '../config';
import { effectiveMinimum, quoteFee, review } from './rules';

const USDT = 1_000_000n;

describe('W1 received = amount - fee, the fee following the network', () => {
  it('W1 TRC20 charges 1 USDT and ERC20 5 USDT', () => {
    expect(quoteFee(WITHDRAW_DEFAULTS, 'TRC20', 25n * USDT)).toEqual({
      feeMicro: USDT,
      receivedMicro: 24n * USDT,
      minimumMicro: 10n * USDT,
    });
    expect(quoteFee(WITHDRAW_DEFAULTS, 'ERC20', 10_500_001n).receivedMicro).toBe(5_500_001n);
  });

  it('W1 a quote below the fee receives zero, never a negative amount', () => {
    expect(quoteFee(WITHDRAW_DEFAULTS, 'ERC20', 3n * USDT).receivedMicro).toBe(0n);
  });
});

describe('W2 minimum withdrawal', () => {
  it('W2 the minimum is 10 USDT, and never at or below the fee whatever config says', () => {
    expect(effectiveMinimum(WITHDRAW_DEFAULTS, 'TRC20')).toBe(10n * USDT);
    const low = { ...WITHDRAW_DEFAULTS, minWithdraw: 2n * USDT };
    expect(effectiveMinimum(low, 'TRC20')).toBe(2n * USDT);
    expect(effectiveMinimum(low, 'ERC20')).toBe(5n * USDT + 1n);
  });
});

describe('W5 the simulated review rule', () => {
  it('W5 sends an ordinary withdrawal', () => {
    expect(review(WITHDRAW_DEFAULTS, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 50n * USDT)).toEqual({
      send: true,
    });
  });

  it('W5 rejects deny-listed addresses (the burn addresses ship by default), in any letter case', () => {
    for (const address of DEFAULT_DENY_LIST) {
      expect(validateAddress(address.startsWith('T') ? 'TRC20' : 'ERC20', address).ok).toBe(true);
      expect(review(WITHDRAW_DEFAULTS, address.toLowerCase(), 50n * USDT)).toMatchObject({ send: false });
    }
  });

  it('W5 rejects an amount above the single-withdrawal limit, and sends one at the limit', () => {
    const config = { ...WITHDRAW_DEFAULTS, withdrawReviewLimit: 100n * USDT };
    const address = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(review(config, address, 100n * USDT)).toEqual({ send: true });
    expect(review(config, address, 100n * USDT + 1n)).toMatchObject({ send: false, reason: /limit/ });
  });
});
