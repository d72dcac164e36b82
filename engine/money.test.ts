import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairScale } from './market/symbols';
import {
  KNOWN_SEPARATORS,
  SCALE,
  compareDecimal,
  roundDecimal,
  formatAmount,
  formatDecimal,
  mulDiv,
  parseAmount,
  separatorsFor,
  separatorsFromIntl,
  tryParseAmount,
  units,
} from './money';

describe('money', () => {
  it('G9 parses plain decimal strings exactly to micro-units', () => {
    expect(parseAmount('12.5')).toBe(12_500_000n);
    expect(parseAmount('0.000001')).toBe(1n);
    expect(parseAmount('007')).toBe(7_000_000n);
    expect(parseAmount('0')).toBe(0n);
    expect(parseAmount('999999999999999.999999')).toBe(999_999_999_999_999_999_999n);
  });

  it.each([
    ['-1', 'negative'],
    ['1e3', 'exponent'],
    ['1.0000001', 'seven decimals'],
    ['', 'empty'],
    [' 1', 'space'],
    ['1.', 'dangling point'],
    ['.5', 'no integer part'],
    ['+1', 'sign'],
    ['0x10', 'hex'],
    ['1000000000000000', 'absurd size'],
    ['NaN', 'NaN'],
  ])('G10 refuses %j (%s)', (input) => {
    expect(tryParseAmount(input).ok).toBe(false);
  });

  it.each([[12.5], [null], [undefined], [10n], [{}]])('G10 refuses the non-string %s', (input) => {
    expect(tryParseAmount(input).ok).toBe(false);
  });

  it('G11 formats minimal decimal strings and round-trips every amount', () => {
    expect(formatAmount(12_500_000n)).toBe('12.5');
    expect(formatAmount(1n)).toBe('0.000001');
    expect(formatAmount(-3_000_000n)).toBe('-3');
    expect(formatAmount(0n)).toBe('0');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 21n - 1n }), (n) => {
        expect(parseAmount(formatAmount(n))).toBe(n);
      }),
    );
  });

  it('G12 mulDiv rounds as told, for either sign', () => {
    expect(mulDiv(10n, 1n, 3n, 'floor')).toBe(3n);
    expect(mulDiv(10n, 1n, 3n, 'ceil')).toBe(4n);
    expect(mulDiv(-10n, 1n, 3n, 'floor')).toBe(-4n);
    expect(mulDiv(-10n, 1n, 3n, 'ceil')).toBe(-3n);
    expect(mulDiv(5n, 1n, 2n, 'half-up')).toBe(3n);
    expect(mulDiv(-5n, 1n, 2n, 'half-up')).toBe(-3n);
    expect(mulDiv(4n, 1n, 3n, 'half-up')).toBe(1n);
    expect(units(50)).toBe(50_000_000n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (a, c) => {
          const f = mulDiv(a, 1n, c, 'floor');
          expect(f * c <= a && a < (f + 1n) * c).toBe(true);
        },
      ),
    );
  });
});

describe('separators', () => {
  it('keeps the known locales exactly as Intl reports them', () => {
    for (const [locale, known] of Object.entries(KNOWN_SEPARATORS))
      expect({ locale, ...known }).toEqual({ locale, ...separatorsFromIntl(locale) });
  });

  it('asks Intl for a locale it does not know', () => {
    expect(KNOWN_SEPARATORS['de-CH']).toBeUndefined();
    expect(separatorsFor('de-CH')).toEqual(separatorsFromIntl('de-CH'));
    const { minus, group, decimal } = separatorsFromIntl('de-CH');
    expect(formatDecimal('-12345.5', { locale: 'de-CH' })).toBe(`${minus}12${group}345${decimal}50`);
  });
});

describe('display rounding (issue 26)', () => {
  it('down cuts toward zero at any sign; half-up rounds the magnitude', () => {
    expect(roundDecimal('15599.437766', 2, 'down')).toBe('15599.43');
    expect(roundDecimal('-1.999', 2, 'down')).toBe('-1.99');
    expect(roundDecimal('-0.004', 2, 'down')).toBe('0.00');
    expect(roundDecimal('1.995', 2)).toBe('2.00');
  });
  it('property: a figure cut down is never above the exact one, and less than a unit of its last place below', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.integer({ min: 0, max: 6 }), (n, places) => {
        const exact = `${n / SCALE}.${(n % SCALE).toString().padStart(6, '0')}`;
        const cut = roundDecimal(exact, places, 'down') ?? '';
        expect(compareDecimal(cut, exact)).toBeLessThanOrEqual(0);
        const step = places === 0 ? '1' : `0.${'0'.repeat(places - 1)}1`;
        const next = parseAmount(cut) + parseAmount(step);
        expect(next > n).toBe(true);
      }),
    );
  });
  it("pairScale: prices at the pair's tick, quantities at its step", () => {
    expect(pairScale('BTC/USDT')).toEqual({ priceDecimals: 2, quantityDecimals: 4 });
    expect(pairScale('XRPUSDT')).toEqual({ priceDecimals: 4, quantityDecimals: 4 });
    expect(pairScale('doge')).toEqual({ priceDecimals: 5, quantityDecimals: 4 });
    expect(pairScale('NOPE/USDT')).toBeUndefined();
  });
});
