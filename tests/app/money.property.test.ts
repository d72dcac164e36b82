/**
 * One money module from end to end (issue 15, item 2), as properties over generated amounts:
 * - every valid amount survives the wire format and the display exactly (parse/format round trip);
 * - every string is judged the same way by the app's forms and by the engine's wire parser: what the
 *   engine refuses, the forms refuse, and what the forms accept, the engine accepts at the same value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_INTEGER_DIGITS,
  compareDecimal,
  formatDecimal,
  formatMicro,
  parseAmountText,
  tryParseAmount,
} from '../../engine/index';
import { checkAmount } from '../../src/lib/amount';
import { defaultValidators } from '../../src/machines/withdrawal-rules';
import { formatAmount } from '../../src/lib/format';

/** Every amount the engine holds: 0 to 10^15 - 1 whole units with 6 decimals, as micro-units. */
const micro = fc.bigInt({ min: 0n, max: 10n ** BigInt(MAX_INTEGER_DIGITS + 6) - 1n });

/** Strings near the amount grammar (digits, dots, signs, exponents, spaces), plus anything at all. */
const amountish = fc.oneof(
  fc.stringMatching(/^[ +-]?\d{0,20}(\.\d{0,8})?(e\d)?[ ]?$/),
  fc.string({ maxLength: 24 }),
  micro.map((m) => formatMicro(m)),
);

/** The display without its locale dressing, back to a plain decimal string. */
const plain = (display: string) => display.replace(/,/g, '');

describe('money round trip', () => {
  it('parse(format(m)) === m for every valid amount, through the wire string and the exact display', () => {
    fc.assert(
      fc.property(micro, (m) => {
        const wire = formatMicro(m);
        expect(tryParseAmount(wire)).toEqual({ ok: true, value: m });
        expect(parseAmountText(wire)).toBe(m);
        const shown = formatAmount(wire);
        expect(parseAmountText(plain(shown))).toBe(m);
        expect(formatDecimal(wire, { locale: 'de-DE' }).replace(/\./g, '').replace(',', '.')).toBe(
          plain(shown),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('the display never drops a digit: 50.125 shows as 50.125', () => {
    expect(formatAmount('50.125')).toBe('50.125');
    expect(formatAmount('0.000001')).toBe('0.000001');
    expect(formatAmount('1000')).toBe('1,000.00');
  });

  it('compares decimal strings exactly, in the order of their micro-units', () => {
    fc.assert(
      fc.property(micro, micro, (a, b) => {
        const expected = a < b ? -1 : a > b ? 1 : 0;
        expect(compareDecimal(formatMicro(a), formatMicro(b))).toBe(expected);
        expect(compareDecimal(formatMicro(-a), formatMicro(-b))).toBe(-expected || 0);
      }),
    );
  });
});

describe('app and engine refuse the same strings', () => {
  it('the forms accept a string exactly when the engine parses it, at the same value', () => {
    fc.assert(
      fc.property(amountish, (text) => {
        const engine = tryParseAmount(text.trim());
        const app = parseAmountText(text);
        expect(app).toBe(engine.ok ? engine.value : null);
        const form = checkAmount(text, '0');
        const withdrawal = defaultValidators.amount(text, '0');
        if (text.trim() === '') {
          expect(form).toBe('required');
          expect(withdrawal).toBe('required');
        } else if (!engine.ok || engine.value === 0n) {
          expect(form).toBe('invalidAmount');
          expect(withdrawal).toBe('invalidAmount');
        } else {
          expect(form).toBeNull();
          expect(withdrawal).toBeNull();
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what the old app copy accepted and the engine does not: 19 integer digits', () => {
    const huge = '1234567890123456789';
    expect(tryParseAmount(huge).ok).toBe(false);
    expect(parseAmountText(huge)).toBeNull();
    expect(defaultValidators.amount(huge, '10')).toBe('invalidAmount');
  });
});
