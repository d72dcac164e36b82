/**
 * Display helpers. Amounts arrive as decimal strings (API.md) and are formatted by string and bigint
 * arithmetic only, never through floating point, so "0.015" rounds to "0.02" exactly as a member expects.
 */

/** SPEC.md §9: a ten-digit timestamp is in seconds, a thirteen-digit one in milliseconds. */
export function toMillis(timestamp: number | string): number {
  const n = typeof timestamp === 'string' ? Number(timestamp.trim()) : timestamp;
  if (!Number.isFinite(n)) return Number.NaN;
  const digits = String(Math.trunc(Math.abs(n))).length;
  return digits <= 10 ? n * 1000 : n;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Formats in local time. Tokens: YYYY MM DD HH mm ss. Invalid input gives an empty string. */
export function formatTime(timestamp: number | string, pattern = 'YYYY-MM-DD HH:mm:ss'): string {
  const ms = toMillis(timestamp);
  if (Number.isNaN(ms)) return '';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const tokens: Record<string, string> = {
    YYYY: pad(d.getFullYear(), 4),
    MM: pad(d.getMonth() + 1),
    DD: pad(d.getDate()),
    HH: pad(d.getHours()),
    mm: pad(d.getMinutes()),
    ss: pad(d.getSeconds()),
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => tokens[token] ?? token);
}

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?$/;

/**
 * Rounds a decimal string to `decimals` places, half away from zero (half-up on the magnitude), and returns
 * a plain decimal string ("-1234.57"), or undefined when the input is not a decimal number.
 */
export function roundDecimal(value: string, decimals = 2): string | undefined {
  const m = DECIMAL.exec(value.trim());
  if (!m || (!m[2] && !m[3])) return undefined;
  const negative = m[1] === '-';
  const intPart = m[2] || '0';
  const frac = (m[3] ?? '').padEnd(decimals + 1, '0');
  let scaled = BigInt(intPart + frac.slice(0, decimals));
  if ((frac[decimals] ?? '0') >= '5') scaled += 1n;
  const digits = scaled.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  const sign = negative && scaled !== 0n ? '-' : '';
  return decimals > 0 ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

interface Separators {
  group: string;
  decimal: string;
  minus: string;
  /** Locales such as es-ES leave four-digit numbers ungrouped. */
  minGroupingDigits: number;
}

const separatorCache = new Map<string, Separators>();

/** Latin digits everywhere (as exchanges show prices), with the locale's own separators. */
export function separatorsFor(locale: string): Separators {
  const cached = separatorCache.get(locale);
  if (cached) return cached;
  const nf = new Intl.NumberFormat(locale, { numberingSystem: 'latn' });
  const parts = nf.formatToParts(-12345.6);
  const find = (type: string, fallback: string) => parts.find((p) => p.type === type)?.value ?? fallback;
  const fourDigits = nf.formatToParts(1234);
  const result: Separators = {
    group: find('group', ','),
    decimal: find('decimal', '.'),
    minus: find('minusSign', '-'),
    minGroupingDigits: fourDigits.some((p) => p.type === 'group') ? 1 : 2,
  };
  separatorCache.set(locale, result);
  return result;
}

export interface AmountOptions {
  decimals?: number;
  locale?: string;
}

/** Formats a decimal string for display: rounded half-up, grouped, with the locale's separators. */
export function formatAmount(value: string, { decimals = 2, locale = 'en-US' }: AmountOptions = {}): string {
  const rounded = roundDecimal(value, decimals);
  if (rounded === undefined) return '--';
  const { group, decimal, minus, minGroupingDigits } = separatorsFor(locale);
  const negative = rounded.startsWith('-');
  const [whole = '0', fraction] = (negative ? rounded.slice(1) : rounded).split('.');
  let grouped = whole;
  if (whole.length >= 4 + (minGroupingDigits - 1)) {
    grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  }
  return `${negative ? minus : ''}${grouped}${fraction !== undefined ? decimal + fraction : ''}`;
}
