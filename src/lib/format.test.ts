import { describe, expect, it } from 'vitest';
import { formatAmount, formatTime, roundDecimal, toMillis } from './format';

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
