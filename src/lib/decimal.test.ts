import { describe, expect, it } from 'vitest';
import { compactVolume, pairDecimals, priceDecimals } from './decimal';

describe('priceDecimals', () => {
  it('shows a price at its own precision, between 2 and 6 decimals', () => {
    expect(priceDecimals('95000')).toBe(2);
    expect(priceDecimals('0.34000')).toBe(2);
    expect(priceDecimals('0.33991')).toBe(5);
    expect(priceDecimals('0.0000001')).toBe(6);
  });
});

describe('pairDecimals', () => {
  it('takes the most decimals any of the figures needs', () => {
    expect(pairDecimals('A/USDT', '0.34', '0.3457', '0.3301')).toBe(4);
  });

  it('never shows a pair with fewer decimals than it already has: a round price keeps its width', () => {
    expect(pairDecimals('B/USDT', '0.3399')).toBe(4);
    expect(pairDecimals('B/USDT', '0.34')).toBe(4);
    expect(pairDecimals('B/USDT', '0.34001')).toBe(5);
    expect(pairDecimals('B/USDT', '0.35')).toBe(5);
  });

  it('keeps each pair apart', () => {
    expect(pairDecimals('C/USDT', '95000.1')).toBe(2);
    expect(pairDecimals('D/USDT', '2.1234')).toBe(4);
    expect(pairDecimals('C/USDT', '95000')).toBe(2);
  });
});

describe('compactVolume', () => {
  it('shortens millions and billions by moving the point, and groups smaller volumes in full', () => {
    const format = (v: string, d: number) => `${v}|${d}`;
    expect(compactVolume('1234567890.5', format)).toBe('1.234567890|2B');
    expect(compactVolume('3700000', format)).toBe('3.700000|2M');
  });
});
