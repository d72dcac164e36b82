/**
 * Exact money. Every asset (USDT and coins alike) is held as a bigint count of micro-units: 6 decimals,
 * one scale everywhere, so postings of different assets never need conversion inside the ledger.
 * Parsing and formatting happen only at the edges (wire strings in, wire strings out).
 */

export type Micro = bigint;

export const DECIMALS = 6;
export const SCALE = 1_000_000n;
/** Parts per million, the unit of rates (funding, premiums): numerically the micro scale, named for its use. */
export const PPM = 1_000_000n;
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

// ---------------------------------------------------------------------------------------------------------
// The app's side of the same module (re-exported by engine/index.ts): what a member types is parsed by the
// wire rule above, decimal strings compare exactly, and a display never drops a digit of a member's amount.

/**
 * Text a member typed -> micro-units, by exactly the wire rule (tryParseAmount) once surrounding spaces are
 * trimmed; null when the engine would refuse it. So a form never accepts an amount the engine answers 400 to.
 */
export function parseAmountText(text: string): Micro | null {
  const parsed = tryParseAmount(text.trim());
  return parsed.ok ? parsed.value : null;
}

const SIGNED = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** A signed decimal string of any precision as { digits, places }, or null when it is not one. */
function signedParts(value: string): { n: bigint; places: number } | null {
  const m = SIGNED.exec(value.trim());
  if (!m || (!m[2] && !m[3])) return null;
  const frac = m[3] ?? '';
  const n = BigInt(`${m[2] || '0'}${frac}`);
  return { n: m[1] === '-' ? -n : n, places: frac.length };
}

/**
 * Exact order of two signed decimal strings of any precision ("-1.5", "0.30", "+2"): -1, 0 or 1, never
 * through floating point. A string that is not a decimal orders as zero.
 */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = signedParts(a) ?? { n: 0n, places: 0 };
  const y = signedParts(b) ?? { n: 0n, places: 0 };
  const places = Math.max(x.places, y.places);
  const l = x.n * 10n ** BigInt(places - x.places);
  const r = y.n * 10n ** BigInt(places - y.places);
  return l < r ? -1 : l > r ? 1 : 0;
}

/** The sign of a decimal string: -1, 0 or 1 (0 for a string that is not a decimal). */
export function signOf(value: string): -1 | 0 | 1 {
  return compareDecimal(value, '0');
}

/**
 * How a figure shown at fewer places than it has is cut: `half-up` (half away from zero) for market figures
 * and estimates, `down` (toward zero) for what a member holds, so a balance never shows a cent more than it is.
 */
export type DisplayRounding = 'half-up' | 'down';

/**
 * Rounds a decimal string to `decimals` places, half away from zero (or toward zero with `down`), as a plain
 * decimal string ("-1234.57"), or undefined when the input is not a decimal number.
 */
export function roundDecimal(
  value: string,
  decimals = 2,
  rounding: DisplayRounding = 'half-up',
): string | undefined {
  const m = SIGNED.exec(value.trim());
  if (!m || (!m[2] && !m[3])) return undefined;
  const negative = m[1] === '-';
  const frac = (m[3] ?? '').padEnd(decimals + 1, '0');
  let scaled = BigInt((m[2] || '0') + frac.slice(0, decimals));
  if (rounding === 'half-up' && (frac[decimals] ?? '0') >= '5') scaled += 1n;
  const digits = scaled.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  const sign = negative && scaled !== 0n ? '-' : '';
  return decimals > 0 ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

/**
 * A decimal string with every significant digit kept and at least `minDecimals` places: "50.125" -> "50.125",
 * "50" -> "50.00", "-0.5000" -> "-0.50". Undefined when the input is not a decimal number.
 */
export function exactDecimal(value: string, minDecimals = 2): string | undefined {
  const m = SIGNED.exec(value.trim());
  if (!m || (!m[2] && !m[3])) return undefined;
  const whole = (m[2] || '0').replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '').padEnd(minDecimals, '0');
  const zero = /^0*$/.test(whole) && /^0*$/.test(frac);
  const sign = m[1] === '-' && !zero ? '-' : '';
  return frac ? `${sign}${whole}.${frac}` : `${sign}${whole}`;
}

export interface Separators {
  group: string;
  decimal: string;
  minus: string;
  /** Locales such as es-ES leave four-digit numbers ungrouped. */
  minGroupingDigits: number;
}

/**
 * The twenty interface languages' separators as Intl reports them (Node 24 and Chromium agree;
 * engine/money.test.ts checks this table against Intl), so the first figure on a slow phone does not wait
 * for Intl.NumberFormat to load a locale's data (over 100 ms on a throttled CPU). Other locales ask Intl.
 */
export const KNOWN_SEPARATORS: Readonly<Record<string, Separators>> = {
  'zh-CN': { group: ',', decimal: '.', minus: '-', minGroupingDigits: 1 },
  'zh-HK': { group: ',', decimal: '.', minus: '-', minGroupingDigits: 1 },
  'en-US': { group: ',', decimal: '.', minus: '-', minGroupingDigits: 1 },
  'ja-JP': { group: ',', decimal: '.', minus: '-', minGroupingDigits: 1 },
  'ko-KR': { group: ',', decimal: '.', minus: '-', minGroupingDigits: 1 },
  'vi-VN': { group: '.', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'th-TH': { group: ',', decimal: '.', minus: '-', minGroupingDigits: 1 },
  'id-ID': { group: '.', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'ru-RU': { group: '\u00a0', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'uk-UA': { group: '\u00a0', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'pl-PL': { group: '\u00a0', decimal: ',', minus: '-', minGroupingDigits: 2 },
  'cs-CZ': { group: '\u00a0', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'de-DE': { group: '.', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'fr-FR': { group: '\u202f', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'it-IT': { group: '.', decimal: ',', minus: '-', minGroupingDigits: 2 },
  'es-ES': { group: '.', decimal: ',', minus: '-', minGroupingDigits: 2 },
  'pt-BR': { group: '.', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'tr-TR': { group: '.', decimal: ',', minus: '-', minGroupingDigits: 1 },
  'ar-SA': { group: ',', decimal: '.', minus: '-', minGroupingDigits: 1 },
  'fa-IR': { group: ',', decimal: '.', minus: '\u2212', minGroupingDigits: 1 },
};

const separatorCache = new Map<string, Separators>(Object.entries(KNOWN_SEPARATORS));

/** A locale's separators, with Latin digits everywhere (as exchanges show prices). */
export function separatorsFor(locale: string): Separators {
  const cached = separatorCache.get(locale);
  if (cached) return cached;
  const result = separatorsFromIntl(locale);
  separatorCache.set(locale, result);
  return result;
}

/** What Intl says of a locale's separators. */
export function separatorsFromIntl(locale: string): Separators {
  const nf = new Intl.NumberFormat(locale, { numberingSystem: 'latn' });
  const parts = nf.formatToParts(-12345.6);
  const find = (type: string, fallback: string) => parts.find((p) => p.type === type)?.value ?? fallback;
  return {
    group: find('group', ','),
    decimal: find('decimal', '.'),
    minus: find('minusSign', '-'),
    minGroupingDigits: nf.formatToParts(1234).some((p) => p.type === 'group') ? 1 : 2,
  };
}

export interface DisplayOptions {
  locale?: string;
  /**
   * Round to exactly this many places (half away from zero): ONLY for market figures shown at a chosen
   * precision (prices, volumes, rates). Without it the display is exact: a member's amount is never rounded.
   */
  decimals?: number;
  /** With `decimals`: how the cut places round (default half-up; `down` for a member's holdings). */
  rounding?: DisplayRounding;
  /** Without `decimals`: pad to at least this many places (default 2); extra significant digits are kept. */
  minDecimals?: number;
}

/**
 * A decimal string for display, grouped with the locale's separators: exact by default ("50.125" ->
 * "50.125", "1234.5" -> "1,234.50"), rounded only when `decimals` asks for it. "--" for a non-decimal.
 */
export function formatDecimal(value: string, options: DisplayOptions = {}): string {
  const { locale = 'en-US', decimals, minDecimals = 2, rounding } = options;
  const plain =
    decimals === undefined ? exactDecimal(value, minDecimals) : roundDecimal(value, decimals, rounding);
  if (plain === undefined) return '--';
  const { group, decimal, minus, minGroupingDigits } = separatorsFor(locale);
  const negative = plain.startsWith('-');
  const [whole = '0', fraction] = (negative ? plain.slice(1) : plain).split('.');
  const grouped =
    whole.length >= 4 + (minGroupingDigits - 1) ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, group) : whole;
  return `${negative ? minus : ''}${grouped}${fraction !== undefined ? decimal + fraction : ''}`;
}
