/**
 * Exact comparisons of the decimal strings prices, changes and amounts travel as (API.md): scaled to
 * integers with bigint, never through floating point, so "0.1" + "0.2" style errors cannot reorder a list.
 */
const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$|^([+-])?\.(\d+)$/;
/** Enough places for every price tick and percent the engine sends (prices have 6). */
const PLACES = 8;

/** The value times 10^8 as a bigint, or null when it is not a plain decimal. Extra places are cut. */
export function scaled(value: string): bigint | null {
  const m = DECIMAL.exec(value.trim());
  if (!m) return null;
  const sign = m[1] ?? m[4];
  const whole = m[2] ?? '0';
  const frac = (m[3] ?? m[5] ?? '').slice(0, PLACES).padEnd(PLACES, '0');
  const n = BigInt(whole + frac);
  return sign === '-' ? -n : n;
}

/** -1, 0 or 1; non-numbers sort as 0. */
export function compareDecimal(a: string, b: string): number {
  const x = scaled(a) ?? 0n;
  const y = scaled(b) ?? 0n;
  return x < y ? -1 : x > y ? 1 : 0;
}

export function signOf(value: string): -1 | 0 | 1 {
  const n = scaled(value) ?? 0n;
  return n < 0n ? -1 : n > 0n ? 1 : 0;
}

/** How many decimals a price string carries, for display at its own precision (2 to 6). */
export function priceDecimals(price: string): number {
  const frac = price.split('.')[1] ?? '';
  return Math.min(6, Math.max(2, frac.replace(/0+$/, '').length));
}

const UNITS: [number, string][] = [
  [9, 'B'],
  [6, 'M'],
];

/**
 * A large volume shortened as exchanges show it ("1.23B", "3.70M"), by moving the decimal point in the
 * string, so no float ever rounds it; below a million it is grouped in full.
 */
export function compactVolume(value: string, format: (decimal: string, decimals: number) => string): string {
  const whole = (value.split('.')[0] ?? '').replace(/^[+-]/, '');
  for (const [digits, suffix] of UNITS) {
    if (whole.length > digits) {
      const cut = whole.length - digits;
      return `${format(`${whole.slice(0, cut)}.${whole.slice(cut)}`, 2)}${suffix}`;
    }
  }
  return format(value, 0);
}
