/**
 * Market display helpers. Exact comparison of the decimal strings prices and changes travel as is the
 * engine's money module (compareDecimal, signOf: re-exported here for the market screens), never a copy.
 */
export { compareDecimal, signOf } from '../../engine/index';

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
