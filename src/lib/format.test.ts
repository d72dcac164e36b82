import { describe, expect, it } from 'vitest';
import { figureDecimals, formatAmount, formatFigure, formatTime, roundDecimal, toMillis } from './format';

describe('toMillis: ten-digit timestamps are seconds (SPEC.md §9)', () => {
  it('multiplies ten-digit seconds by 1000', () => {
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toMillis('1700000000')).toBe(1_700_000_000_000);
  });
  it('keeps thirteen-digit milliseconds', () => {
    expect(toMillis(1_700_000_000_123)).toBe(1_700_000_000_123);
  });
  it('answers NaN for garbage', () => {
    expect(toMillis('soon')).toBeNaN();
  });
});

describe('formatTime: default YYYY-MM-DD HH:mm:ss', () => {
  const local = new Date(2026, 0, 2, 3, 4, 5);
  const seconds = Math.floor(local.getTime() / 1000);
  it('formats seconds and milliseconds to the same text', () => {
    expect(formatTime(seconds)).toBe('2026-01-02 03:04:05');
    expect(formatTime(local.getTime())).toBe('2026-01-02 03:04:05');
  });
  it('accepts a custom pattern', () => {
    expect(formatTime(seconds, 'DD/MM HH:mm')).toBe('02/01 03:04');
  });
  it('returns an empty string for invalid input', () => {
    expect(formatTime('x')).toBe('');
  });
});

describe('roundDecimal: exact half-up rounding on the decimal string', () => {
  it.each([
    ['1', 2, '1.00'],
    ['1.005', 2, '1.01'],
    ['0.015', 2, '0.02'],
    ['0.014999999', 2, '0.01'],
    ['2.675', 2, '2.68'],
    ['999.995', 2, '1000.00'],
    ['-1.005', 2, '-1.01'],
    ['-0.001', 2, '0.00'],
    ['.5', 0, '1'],
    ['12345678901234567890.123456', 6, '12345678901234567890.123456'],
    ['0.0000005', 6, '0.000001'],
  ])('%s to %i places is %s', (input, decimals, expected) => {
    expect(roundDecimal(input, decimals)).toBe(expected);
  });
  it.each(['', 'abc', '1.2.3', '1e5', '--1'])('rejects %j', (input) => {
    expect(roundDecimal(input)).toBeUndefined();
  });
});

describe('formatAmount: grouping and separators from Intl', () => {
  it('is exact by default (at least two places, no digit of an amount dropped), rounded only on request', () => {
    expect(formatAmount('50.125')).toBe('50.125');
    expect(formatAmount('50')).toBe('50.00');
    expect(formatAmount('1234567.891')).toBe('1,234,567.891');
    expect(formatAmount('1234567.891', { decimals: 2 })).toBe('1,234,567.89');
  });
  it('uses German separators', () => {
    expect(formatAmount('1234567.891', { locale: 'de-DE', decimals: 2 })).toBe('1.234.567,89');
  });
  it('uses the French narrow no-break space group separator and comma decimal', () => {
    expect(formatAmount('1234.5', { locale: 'fr-FR' })).toBe('1\u202f234,50');
  });
  it('leaves four-digit numbers ungrouped where the locale does (es-ES)', () => {
    expect(formatAmount('1234.5', { locale: 'es-ES' })).toBe('1234,50');
    expect(formatAmount('12345.5', { locale: 'es-ES' })).toBe('12.345,50');
  });
  it('keeps Latin digits in Arabic', () => {
    expect(formatAmount('1234.5', { locale: 'ar-SA' })).toMatch(/^1.234.50$/);
  });
  it('formats negatives and custom decimals', () => {
    expect(formatAmount('-0.1234567', { decimals: 6 })).toBe('-0.123457');
    expect(formatAmount('42', { decimals: 0 })).toBe('42');
  });
  it('shows -- for a value that is not a decimal string', () => {
    expect(formatAmount('NaN')).toBe('--');
  });
  it('never loses precision on values floats cannot hold', () => {
    expect(formatAmount('9007199254740993.25')).toBe('9,007,199,254,740,993.25');
  });
});

describe('formatFigure: places per asset and use (issue 26)', () => {
  it('USDT money shows 2 places, cut toward zero: a balance never shows a cent it does not hold', () => {
    expect(formatFigure('15599.437766', {}, 'en-US')).toBe('15,599.43');
    expect(formatFigure('15599.437766', { kind: 'usdt' }, 'de-DE')).toBe('15.599,43');
    expect(formatFigure('-0.009', {}, 'en-US')).toBe('0.00');
    expect(formatFigure('0.015', { rounding: 'half-up' }, 'en-US')).toBe('0.02');
  });
  it("a price shows its pair's tick: 2 places for BTC, 4 for XRP, 5 for DOGE", () => {
    expect(formatFigure('132863.070', { kind: 'price', symbol: 'BTC/USDT' }, 'en-US')).toBe('132,863.07');
    expect(formatFigure('2.2', { kind: 'price', symbol: 'XRP/USDT' }, 'en-US')).toBe('2.2000');
    expect(formatFigure('0.321156', { kind: 'price', symbol: 'DOGE/USDT' }, 'de-DE')).toBe('0,32116');
  });
  it("a quantity shows the pair's step (4 places), cut toward zero", () => {
    expect(formatFigure('0.123456', { kind: 'quantity', symbol: 'BTC/USDT' }, 'en-US')).toBe('0.1234');
    expect(formatFigure('1234.5', { kind: 'quantity', symbol: 'ETH/USDT' }, 'fr-FR')).toBe('1\u202f234,5000');
  });
  it('percents and funding rates round half-up; sign marks a gain; exact keeps every digit', () => {
    expect(formatFigure('1.005', { kind: 'percent', sign: true }, 'en-US')).toBe('+1.01');
    expect(formatFigure('-0.5', { kind: 'percent', sign: true }, 'en-US')).toBe('-0.50');
    expect(formatFigure('0.01234', { kind: 'rate' }, 'en-US')).toBe('0.0123');
    expect(formatFigure('50.125', { kind: 'exact' }, 'en-US')).toBe('50.125');
    expect(formatFigure('garbage', {}, 'en-US')).toBe('--');
  });
  it('an unknown pair keeps its own precision', () => {
    expect(figureDecimals('1.23456', { kind: 'price', symbol: 'NOPE/USDT' })).toBe(5);
  });
});
