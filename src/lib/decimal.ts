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

/** The most decimals each pair's prices have needed so far on this page (pairDecimals). */
const pairPrecision = new Map<string, number>();

/**
 * A pair's price decimals as the screens show them: the most that any of the given figures (latest, high,
 * low, open...) needs, and never fewer than the pair has already been shown with. A live price that happens
 * to end in zeros ("0.34000") then keeps its width ("0.3400") instead of shrinking to "0.34" and back, which
 * would move the figure on screen at every such tick (the prices are right-aligned).
 */
export function pairDecimals(symbol: string, ...prices: string[]): number {
  const decimals = Math.max(pairPrecision.get(symbol) ?? 2, ...prices.map(priceDecimals));
  pairPrecision.set(symbol, decimals);
  return decimals;
}

/** A quote's price decimals: pairDecimals over every price it carries (the lists and the K-line). */
export function quoteDecimals(q: {
  symbol: string;
  latest: string;
  high: string;
  low: string;
  open: string;
  prevClose: string;
}): number {
  return pairDecimals(q.symbol, q.latest, q.high, q.low, q.open, q.prevClose);
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
