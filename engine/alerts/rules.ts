/**
 * The rules of a price alert (docs/RULES.md N1-N6): what may be set, and when a price reaches it.
 */
import { Codes, fail } from '../errors';
import { mulDiv, PPM, type Micro } from '../money';
import type { Range } from '../market/extremes';
import type { PriceAlertRow } from './tables';

/** A move alert's percentage: 0.1% to 50%, in steps of 0.01% (ppm: 1_000 to 500_000, multiples of 100). */
export const MOVE_MIN_PPM = 1_000;
export const MOVE_MAX_PPM = 500_000;

/** A percentage in micro-units (amount "2.5" = 2_500_000) as ppm, or 6201 outside the range or the step. */
export function requireMovePpm(percentMicro: Micro): number {
  // 1 ppm is 100 micro-percent: a step of 0.01% is 10_000 micro-percent.
  if (percentMicro % 10_000n !== 0n) throw invalid();
  const ppm = Number(percentMicro / 100n);
  if (ppm < MOVE_MIN_PPM || ppm > MOVE_MAX_PPM) throw invalid();
  return ppm;
}

function invalid() {
  return fail(Codes.alertValueInvalid, 'A move alert takes 0.1% to 50%, with at most two decimals', {
    min: '0.1',
    max: '50',
  });
}

/** The prices at or beyond which the alert fires: [at or below, at or above] (null: no such side). */
export function thresholds(row: Pick<PriceAlertRow, 'kind' | 'price' | 'movePpm' | 'basePrice'>): {
  low: Micro | null;
  high: Micro | null;
} {
  if (row.kind === 'above') return { low: null, high: BigInt(row.price ?? '0') };
  if (row.kind === 'below') return { low: BigInt(row.price ?? '0'), high: null };
  const base = BigInt(row.basePrice);
  const ppm = BigInt(row.movePpm ?? 0);
  // A move of p% up rounds up and down rounds down: the alert never fires on less than the move asked.
  return {
    low: mulDiv(base, PPM - ppm, PPM, 'floor'),
    high: mulDiv(base, PPM + ppm, PPM, 'ceil'),
  };
}

/** N3: whether prices within `range` reach the alert, and the price that did (the extreme beyond it). */
export function reached(
  row: Pick<PriceAlertRow, 'kind' | 'price' | 'movePpm' | 'basePrice'>,
  range: Range,
): Micro | null {
  const { low, high } = thresholds(row);
  if (high !== null && BigInt(range.high) >= high) return BigInt(range.high);
  if (low !== null && BigInt(range.low) <= low) return BigInt(range.low);
  return null;
}
