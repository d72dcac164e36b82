/**
 * Exact money. Every asset (USDT and coins alike) is held as a bigint count of micro-units: 6 decimals,
 * one scale everywhere, so postings of different assets never need conversion inside the ledger.
 * Parsing and formatting happen only at the edges (wire strings in, wire strings out).
 */

export type Micro = bigint;

export const DECIMALS = 6;
export const SCALE = 1_000_000n;
/** Amounts above 10^15 whole units are refused as absurd: far beyond any balance, and cheap to reject. */
export const MAX_INTEGER_DIGITS = 15;

const AMOUNT_RE = /^(\d+)(?:\.(\d+))?$/;

export type AmountParse = { ok: true; value: Micro } | { ok: false; reason: string };

/**
 * Parses a wire amount: a plain decimal string with at most 6 decimals. Refuses non-strings (numbers are
 * floats on the wire), signs, exponents, spaces, empty strings, more than 6 decimals and absurd sizes.
 * Zero is accepted here; callers enforce their own minimums.
 */
export function tryParseAmount(input: unknown): AmountParse {
  if (typeof input !== 'string') return { ok: false, reason: 'must be a decimal string' };
  if (input.length === 0) return { ok: false, reason: 'is empty' };
  const match = AMOUNT_RE.exec(input);
  if (!match) return { ok: false, reason: 'must be a plain non-negative decimal like "12.5"' };
  const whole = match[1] ?? '';
  const frac = match[2] ?? '';
  if (frac.length > DECIMALS) return { ok: false, reason: `has more than ${DECIMALS} decimals` };
  if (whole.replace(/^0+(?=\d)/, '').length > MAX_INTEGER_DIGITS)
    return { ok: false, reason: 'is too large' };
  return { ok: true, value: BigInt(whole) * SCALE + BigInt(frac.padEnd(DECIMALS, '0')) };
}

/** Like tryParseAmount but throws a RangeError; for trusted constants and tests. */
export function parseAmount(input: unknown): Micro {
  const parsed = tryParseAmount(input);
  if (!parsed.ok) throw new RangeError(`Amount ${parsed.reason}`);
  return parsed.value;
}

/** Minimal decimal string: 12500000n -> "12.5", 1n -> "0.000001", -3000000n -> "-3". */
export function formatAmount(value: Micro): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / SCALE;
  const frac = (abs % SCALE).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** Whole units to micro-units, for constants: units(50) === 50_000_000n. */
export function units(whole: number | bigint): Micro {
  if (typeof whole === 'number' && !Number.isSafeInteger(whole))
    throw new RangeError('units() takes integers');
  return BigInt(whole) * SCALE;
}

export type Rounding = 'floor' | 'ceil' | 'half-up';

/**
 * a * b / c with explicit rounding, exact for any size. Rounding is toward negative infinity for 'floor'
 * (payouts to members round down so the platform never pays out money it does not have), toward positive
 * infinity for 'ceil' (fees owed by members), and half away from zero for 'half-up' (display only).
 */
export function mulDiv(a: bigint, b: bigint, c: bigint, rounding: Rounding): bigint {
  if (c === 0n) throw new RangeError('mulDiv by zero');
  const n = a * b;
  const q = n / c;
  const r = n % c;
  if (r === 0n) return q;
  const positive = n > 0n === c > 0n;
  if (rounding === 'floor') return positive ? q : q - 1n;
  if (rounding === 'ceil') return positive ? q + 1n : q;
  const twice = (r < 0n ? -r : r) * 2n;
  const absC = c < 0n ? -c : c;
  if (twice >= absC) return positive ? q + 1n : q - 1n;
  return q;
}

/** Multiplies two micro-unit quantities (price x volume), keeping the micro scale. */
export function mulMicro(a: Micro, b: Micro, rounding: Rounding): Micro {
  return mulDiv(a, b, SCALE, rounding);
}

/** amount x basisPoints / 10,000 (rates such as 8% = 800 bp). */
export function applyBps(amount: Micro, bps: bigint, rounding: Rounding): Micro {
  return mulDiv(amount, bps, 10_000n, rounding);
}

export function minMicro(a: Micro, b: Micro): Micro {
  return a < b ? a : b;
}

export function maxMicro(a: Micro, b: Micro): Micro {
  return a > b ? a : b;
}
