/**
 * Venue numbers to exact integers. ccxt hands prices and sizes as JavaScript numbers parsed from the
 * venues' decimal text; every such number is turned back into that text (its shortest round-trip form,
 * which is the venue's own digits for the 15 or fewer significant digits venues send) and then into an
 * integer of the wanted scale with a stated rounding. No arithmetic is done on the number itself.
 */
export type Rounding = 'floor' | 'ceil' | 'half-up';

/** The plain decimal text of a finite number ("1e-7" -> "0.0000001"). */
export function decimalText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa = '', exponentText = '0'] = text.toLowerCase().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const [whole = '', fraction = ''] = mantissa.replace('-', '').split('.');
  const digits = whole + fraction;
  const point = whole.length + exponent;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + out;
}

/**
 * `value` (a number or decimal text) x 10^decimals as an integer, rounded as asked; null when it is not a
 * finite non-negative decimal.
 */
export function scaled(
  value: number | string | null | undefined,
  decimals: number,
  rounding: Rounding,
): bigint | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'number' ? decimalText(value) : value.trim();
  if (text === null) return null;
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const kept = (fraction + '0'.repeat(decimals)).slice(0, decimals);
  const rest = fraction.slice(decimals);
  let result = BigInt(whole + kept);
  const dropped = /[1-9]/.test(rest);
  if (dropped) {
    if (rounding === 'ceil') result += 1n;
    else if (rounding === 'half-up' && rest.charCodeAt(0) >= 53) result += 1n;
  }
  return result;
}
